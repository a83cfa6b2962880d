import { randomBytes, randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeDecider } from '../../platform/cqrs/execute-decider.js';
import { createDb, type Db, migrateToLatest } from '../../platform/database/database.js';
import { EventCore } from '../../platform/event-core/event-core.js';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { moderationContext } from '../moderation.context.js';
import { standing } from './standing.decider.js';
import { standingStream } from './standing.events.js';

/** A ban and its appeal go to the log with the moderator's and the user's words sealed (DESIGN.md "Personal data"). */
describe("a user's standing in the event log", () => {
  let database: TestDatabase;
  let db: Db;
  let core: EventCore;

  beforeAll(async () => {
    database = await createTestDatabase();
    const logger = pino({ level: 'silent' });
    db = createDb(database.url);
    await migrateToLatest(db, logger);
    core = await EventCore.create({
      db,
      databaseUrl: database.url,
      keyEncryptionKey: randomBytes(32),
      contexts: [moderationContext],
      logger,
    });
  });
  afterAll(async () => {
    await core?.stop();
    await db?.destroy();
    await database?.drop();
  });

  it('stores a ban and an appeal, and reads them back, with the reason and the explanation not in clear', async () => {
    const userId = randomUUID();
    const meta = () => ({ commandId: randomUUID(), correlationId: randomUUID(), actor: 'admin-1', now: new Date() });
    await executeDecider(
      core,
      standingStream(userId),
      standing,
      {
        type: 'BanUser',
        caseId: 'case-1',
        userId,
        reason: 'Threatened the partner on camera',
        level: 'severe',
        penalty: { kind: 'restriction', days: 30 },
      },
      meta(),
    );
    await executeDecider(
      core,
      standingStream(userId),
      standing,
      { type: 'AppealBan', caseId: 'case-1', explanation: 'That was a film playing behind me' },
      meta(),
    );

    const read = await core.store.readStream(standingStream(userId));
    expect(read.map((e) => e.type)).toEqual(['UserBanned', 'BanAppealed']);
    expect(read[0]!.data).toMatchObject({ reason: 'Threatened the partner on camera', level: 'severe' });
    expect(read[1]!.data).toMatchObject({ explanation: 'That was a film playing behind me' });

    const stored = await db
      .selectFrom('events')
      .select(['type', 'data'])
      .where('stream_id', '=', standingStream(userId))
      .execute();
    const raw = JSON.stringify(stored);
    expect(raw).not.toContain('Threatened the partner');
    expect(raw).not.toContain('a film playing');
    expect(raw).toContain('severe');
  });
});
