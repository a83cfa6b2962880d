import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contexts } from '../contexts.js';
import { account } from '../identity/domain/account.decider.js';
import { accountStream } from '../identity/domain/account.events.js';
import { standing } from '../moderation/domain/standing.decider.js';
import { standingStream } from '../moderation/domain/standing.events.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { createDb, type Db, migrateToLatest } from '../platform/database/database.js';
import { EventCore } from '../platform/event-core/event-core.js';
import { buildBackend } from '../test-support/backend-process.js';
import { createTestDatabase } from '../test-support/test-database.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/**
 * `--with-personal-data --as <e-mail>` is for an admin the dashboard would let in (spec 6 Admin): an admin under a ban
 * is refused there (AuthGuard, 403) and so here, with nothing printed and nothing recorded in their name.
 */
describe('npm run events --with-personal-data: who counts as an admin, and what stays hidden', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let core: EventCore;
  let env: Record<string, string>;
  const key = randomBytes(32);
  const logger = pino({ level: 'silent' });
  const admin = randomUUID();
  const address = `hal-${admin.slice(0, 8)}@example.com`;
  const meta = (actor: string) => ({ commandId: randomUUID(), correlationId: randomUUID(), actor, now: new Date() });

  beforeAll(async () => {
    buildBackend();
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, logger);
    core = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
    await core.start();
    await db
      .insertInto('account_emails')
      .values({ email_lower: address, user_id: admin, claimed_at: new Date() })
      .execute();
    for (const command of [
      { type: 'Register', userId: admin, emailAddress: address, passwordHash: 'argon2-hash' },
      { type: 'VerifyEmail' },
      { type: 'SetRole', role: 'admin', by: 'system', reason: 'test' },
    ] as const)
      await executeDecider(core, accountStream(admin), account, command, meta(admin));
    env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      PERSONAL_DATA_KEY: key.toString('base64'),
      LOG_LEVEL: 'warn',
    };
  }, 120_000);
  afterAll(async () => {
    await core?.stop();
    await db?.destroy();
    await database?.drop();
  });

  const events = (...args: string[]) =>
    run(process.execPath, ['backend/dist/cli/events.js', ...args], { cwd: repoRoot, env });
  const records = async () =>
    (await core.store.readStream(`admin-staff-${admin}`)).filter((e) => e.type === 'PersonalDataRead');

  it('opens personal fields for an admin in good standing, and refuses the same admin once banned', async () => {
    const before = await events('cat', accountStream(admin), '--with-personal-data', '--as', address);
    expect(before.stdout).toContain(address);
    // A secret, not personal data to audit: never in the clear (as in the audit API).
    expect(before.stdout).not.toContain('argon2-hash');
    expect(await records()).toHaveLength(1);

    const colleague = randomUUID();
    const { position } = await executeDecider(
      core,
      standingStream(admin),
      standing,
      {
        type: 'BanUser',
        caseId: randomUUID(),
        userId: admin,
        reason: 'leaked data',
        level: 'severe',
        penalty: { kind: 'permanent' },
        overrideReason: 'test',
      },
      meta(colleague),
    );
    await core.projections.caughtUpTo(position!, 10_000);

    await expect(events('cat', accountStream(admin), '--with-personal-data', '--as', address)).rejects.toMatchObject({
      stdout: '',
      stderr: expect.stringMatching(/^events failed: --as: .* is banned; personal data is for admins in good standing/),
    });
    expect(await records()).toHaveLength(1);
  }, 60_000);
});
