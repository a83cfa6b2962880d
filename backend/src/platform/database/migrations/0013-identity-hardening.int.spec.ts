import { type Kysely, Migrator } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../../test-support/test-database.js';
import { createDb } from '../database.js';
import { migrations } from './index.js';

/** Address normalisation: rows written before one spelling per mailbox are found by the new key afterwards. */
describe('migration 0013: addresses keyed by one spelling per mailbox', () => {
  let database: TestDatabase;
  let db: Kysely<unknown>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url) as unknown as Kysely<unknown>;
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const migrateTo = (target: string) =>
    new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(target);

  it('rekeys ligature, full-width and international spellings, and leaves a clash for an operator', async () => {
    expect((await migrateTo('0011-media-relay')).error).toBeUndefined();
    const rows = [
      ['oﬃce@example.com', '00000000-0000-4000-8000-000000000001'],
      ['user@bücher.example', '00000000-0000-4000-8000-000000000002'],
      ['plain@example.com', '00000000-0000-4000-8000-000000000003'],
      // Two spellings of one mailbox from before: the plain one keeps its key, the ligature one is left as it was.
      ['ﬁ@example.com', '00000000-0000-4000-8000-000000000004'],
      ['fi@example.com', '00000000-0000-4000-8000-000000000005'],
    ];
    const typed = db as Kysely<{ account_emails: { email_lower: string; user_id: string } }>;
    for (const [email_lower, user_id] of rows)
      await typed.insertInto('account_emails').values({ email_lower: email_lower!, user_id: user_id! }).execute();

    expect((await migrateTo('0013-identity-hardening')).error).toBeUndefined();

    const after = await typed
      .selectFrom('account_emails')
      .select(['email_lower', 'user_id'])
      .orderBy('user_id')
      .execute();
    expect(after.map((row) => row.email_lower)).toEqual([
      'office@example.com',
      'user@xn--bcher-kva.example',
      'plain@example.com',
      'ﬁ@example.com',
      'fi@example.com',
    ]);
  });
});
