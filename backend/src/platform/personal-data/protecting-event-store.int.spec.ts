import { randomBytes, randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test-support/test-database.js';
import { createDb, type Db, migrateToLatest } from '../database/database.js';
import { newEvent, readEverything } from '../event-store/event-store.contract.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import { PostgresEventStore } from '../event-store/postgres/postgres-event-store.js';
import { ProjectionEngine } from '../projections/projection-engine.js';
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
  const vaultKey = randomBytes(32);
  const schemas = () =>
    new EventSchemas().register<ProfileEdited>(
      { type: 'ProfileEdited', schemaVersion: 1, subject: (d) => d.userId, personal: ['emailAddress', 'city'] },
      { type: 'Happened', schemaVersion: 1 },
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, pino({ level: 'silent' }));
    inner = new PostgresEventStore(db, { connectionString: database.url, logger: pino({ level: 'silent' }) });
    vault = new PersonalDataVault(db, vaultKey);
    store = new ProtectingEventStore(inner, schemas(), vault);
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
    await expect(other.readStream(`user-${userId}`)).rejects.toThrow(
      "the personal-data key does not open this database's subject keys (is PERSONAL_DATA_KEY right?)",
    );
  });

  it('opens a batch about many people with one key lookup, not one per person queued on the pool', async () => {
    const people = Array.from({ length: 200 }, () => randomUUID());
    const streams = new Set(people.map((p) => `user-${p}`));
    for (const person of people) await store.append(`user-${person}`, [edit(person)], 'no-stream');
    let lookups = 0;
    const counted = db.withPlugin({
      transformQuery: (args) => {
        if (JSON.stringify(args.node).includes('"subject_keys"')) lookups++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    });
    // A fresh reader (nothing cached), as a CLI run or a new node starts.
    const reader = new ProtectingEventStore(inner, schemas(), new PersonalDataVault(counted, vaultKey));
    // The log reads up to the oldest open transaction on the cluster (another test's, here): wait till all show.
    let mine: RecordedEvent[] = [];
    for (let tries = 0; mine.length < 200 && tries < 100; tries++) {
      if (tries) await new Promise((r) => setTimeout(r, 100));
      lookups = 0;
      mine = (await readEverything(reader)).filter((e) => streams.has(e.streamId));
    }
    expect(mine).toHaveLength(200);
    expect(mine.every((e) => (e.data as ProfileEdited).emailAddress === 'ada@example.com')).toBe(true);
    expect(lookups).toBeLessThanOrEqual(2);
  });

  describe('versioned events', () => {
    // Version 2 of ProfileEdited renames `city` to `hometown` (still personal) and adds `visibility`, 'public' for
    // every edit made before it existed.
    type V2 = Omit<ProfileEdited, 'city'> & { hometown: string; visibility: string };
    const v2 = () =>
      new EventSchemas().register<V2>(
        {
          type: 'ProfileEdited',
          schemaVersion: 2,
          subject: (d) => d.userId,
          personal: ['emailAddress', 'hometown'],
          upcasters: { 1: ({ city, ...rest }) => ({ ...rest, hometown: city, visibility: 'public' }) },
        },
        { type: 'Happened', schemaVersion: 1 },
      );

    it('stores a version 1 event, and every reader of a version 2 build sees it as version 2', async () => {
      const userId = randomUUID();
      const stream = `user-${userId}`;
      await store.append(stream, [edit(userId)], 'no-stream'); // written by the version 1 build
      const upgraded = new ProtectingEventStore(inner, v2(), vault);
      const expected = {
        userId,
        emailAddress: 'ada@example.com',
        hometown: 'Lovelace City',
        bio: 'hello',
        visibility: 'public',
      };

      const [fromStream] = await upgraded.readStream(stream);
      expect(fromStream!.data).toEqual(expected);
      expect(fromStream!.metadata.schemaVersion).toBe(2);
      expect((await readAllOf(upgraded, stream)).data).toEqual(expected);
      // What integration-event mappers read: upcast too, the renamed personal field still erased.
      expect((await upgraded.redacted().readStream(stream))[0]!.data).toEqual({
        ...expected,
        emailAddress: ERASED,
        hometown: ERASED,
      });

      // A projection, fed by the engine's subscription.
      const seen: RecordedEvent[] = [];
      const engine = new ProjectionEngine(
        db,
        upgraded,
        [
          {
            name: `test.versioned-${userId}`,
            canHandle: (e) => e.streamId === stream,
            apply: async (_trx, e) => void seen.push(e),
            reset: async () => {},
          },
        ],
        pino({ level: 'silent' }),
      );
      await engine.start();
      try {
        await engine.caughtUpTo(fromStream!.position, 10_000);
        expect(seen.map((e) => [e.metadata.schemaVersion, e.data])).toEqual([[2, expected]]);
      } finally {
        await engine.stop();
      }

      // The log itself is never rewritten: the stored event is still version 1.
      const [raw] = await inner.readStream(stream);
      expect(raw!.metadata.schemaVersion).toBe(1);
      expect(Object.keys(raw!.data as object)).toContain('city');
    });

    it("reads a version 2 event as written, and a forgotten subject's upcast field as erased", async () => {
      const upgraded = new ProtectingEventStore(inner, v2(), vault);
      const [fresh, forgotten] = [randomUUID(), randomUUID()];
      const written = newEvent('ProfileEdited', {
        userId: fresh,
        emailAddress: 'grace@example.com',
        hometown: 'Arlington',
        bio: 'hi',
        visibility: 'friends',
      });
      await upgraded.append(
        `user-${fresh}`,
        [{ ...written, metadata: { ...written.metadata, schemaVersion: 2 } }],
        'no-stream',
      );
      expect((await upgraded.readStream(`user-${fresh}`))[0]!.data).toMatchObject({
        hometown: 'Arlington',
        visibility: 'friends',
      });

      await store.append(`user-${forgotten}`, [edit(forgotten)], 'no-stream');
      await vault.forgetSubject(forgotten);
      expect((await upgraded.readStream(`user-${forgotten}`))[0]!.data).toEqual({
        userId: forgotten,
        emailAddress: ERASED,
        hometown: ERASED,
        bio: 'hello',
        visibility: 'public',
      });
    });

    it('refuses a schema whose version has a gap in its upcasters', () => {
      expect(() =>
        new EventSchemas().register({ type: 'Renamed', schemaVersion: 3, upcasters: { 1: (d) => d } }),
      ).toThrow(/Renamed is at version 3 but has no upcaster from 2/);
    });
  });
});

/** The stream's event as the whole log reads it, once the log shows it (it reads up to the oldest open transaction). */
async function readAllOf(store: ProtectingEventStore, stream: string): Promise<RecordedEvent> {
  for (let tries = 0; ; tries++) {
    const found = (await readEverything(store)).find((e) => e.streamId === stream);
    if (found || tries > 100) return found!;
    await new Promise((r) => setTimeout(r, 100));
  }
}
