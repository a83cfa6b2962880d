import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import { newEvent, readEverything } from '../event-store/event-store.contract.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { EventSchemas } from './event-schemas.js';
import { ERASED, PersonalDataVault } from './personal-data-vault.js';
import { ProtectingEventStore } from './protecting-event-store.js';

interface ProfileEdited {
  userId: string;
  emailAddress: string;
  city: string;
  bio: string;
}

describe('personal data in events', () => {
  let database: TestDatabase;
  let db: Db;
  let inner: PostgresEventStore;
  let store: ProtectingEventStore;
  let vault: PersonalDataVault;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, pino({ level: 'silent' }));
    inner = new PostgresEventStore(db, { connectionString: database.url, logger: pino({ level: 'silent' }) });
    vault = new PersonalDataVault(db, randomBytes(32));
    const schemas = new EventSchemas().register<ProfileEdited>(
      { type: 'ProfileEdited', schemaVersion: 1, subject: (d) => d.userId, personal: ['emailAddress', 'city'] },
      { type: 'Happened', schemaVersion: 1 },
    );
    store = new ProtectingEventStore(inner, schemas, vault);
  });
  afterAll(async () => {
    await store?.close();
    await db?.destroy();
    await database?.drop();
  });

  const edit = (userId: string) =>
    newEvent('ProfileEdited', { userId, emailAddress: 'ada@example.com', city: 'Lovelace City', bio: 'hello' });

  it('never writes a personal field in the clear, yet reads it back whole', async () => {
    const userId = randomUUID();
    await store.append(`user-${userId}`, [edit(userId)], 'no-stream');

    const raw = await sql<{
      data: string;
    }>`select data::text as data from events where stream_id = ${`user-${userId}`}`.execute(db);
    expect(raw.rows[0]!.data).not.toContain('ada@example.com');
    expect(raw.rows[0]!.data).not.toContain('Lovelace City');
    expect(raw.rows[0]!.data).toContain('hello'); // not personal: stays searchable for moderators

    const [event] = await store.readStream(`user-${userId}`);
    expect(event!.data).toEqual({ userId, emailAddress: 'ada@example.com', city: 'Lovelace City', bio: 'hello' });
  });

  it('after forgetSubject reads the fields as erased, everywhere, without an error', async () => {
    const [forgotten, kept] = [randomUUID(), randomUUID()];
    await store.append(`user-${forgotten}`, [edit(forgotten)], 'no-stream');
    await store.append(`user-${kept}`, [edit(kept)], 'no-stream');

    await vault.forgetSubject(forgotten);

    const [event] = await store.readStream(`user-${forgotten}`);
    expect(event!.data).toEqual({ userId: forgotten, emailAddress: ERASED, city: ERASED, bio: 'hello' });
    const all = await readEverything(store);
    expect(all.find((e) => e.streamId === `user-${forgotten}`)!.data).toMatchObject({ emailAddress: ERASED });
    expect(all.find((e) => e.streamId === `user-${kept}`)!.data).toMatchObject({ emailAddress: 'ada@example.com' });
    // The key is gone from the database, not just hidden.
    const keys = await db.selectFrom('subject_keys').select('key').where('subject_id', '=', forgotten).execute();
    expect(keys).toEqual([{ key: null }]);
  });

  it('refuses new personal data about a forgotten subject', async () => {
    const userId = randomUUID();
    await store.append(`user-${userId}`, [edit(userId)], 'no-stream');
    await vault.forgetSubject(userId);
    await expect(store.append(`user-${userId}`, [edit(userId)], 0n)).rejects.toThrow(/forgotten/);
  });

  it('shows integration-event mappers personal fields as erased, whatever the key', async () => {
    const userId = randomUUID();
    await store.append(`user-${userId}`, [edit(userId)], 'no-stream');
    const [event] = await store.redacted().readStream(`user-${userId}`);
    expect(event!.data).toEqual({ userId, emailAddress: ERASED, city: ERASED, bio: 'hello' });
  });

  it('refuses an event type no context declared', async () => {
    await expect(store.append(`x-${randomUUID()}`, [newEvent('Undeclared')], 'no-stream')).rejects.toThrow(
      /not declared/,
    );
  });

  it('cannot be read with another key-encryption key', async () => {
    const userId = randomUUID();
    await store.append(`user-${userId}`, [edit(userId)], 'no-stream');
    const otherVault = new PersonalDataVault(db, randomBytes(32));
    const other = new ProtectingEventStore(inner, new EventSchemas(), otherVault);
    await expect(other.readStream(`user-${userId}`)).rejects.toThrow();
  });
});
