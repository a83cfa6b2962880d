import { execFile, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contexts } from '../contexts.js';
import { account } from '../identity/domain/account.decider.js';
import { accountStream } from '../identity/domain/account.events.js';
import { postStream } from '../feed/domain/feed.events.js';
import { like } from '../feed/domain/like.decider.js';
import { likeStream } from '../feed/domain/feed.events.js';
import { post } from '../feed/domain/post.decider.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { createDb, type Db, migrateToLatest } from '../platform/database/database.js';
import { EventCore } from '../platform/event-core/event-core.js';
import { buildBackend } from '../test-support/backend-process.js';
import { createTestDatabase } from '../test-support/test-database.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);

/**
 * `npm run events` over a real log (Postgres store): streams with counts, one stream, the whole log with each filter,
 * personal fields as pseudonyms (never the words), a clear error for a bad filter or unknown stream, and a closed pipe
 * ending it quietly.
 */
describe('npm run events', { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let env: Record<string, string>;
  const key = randomBytes(32);
  const logger = pino({ level: 'silent' });
  const [ada, bob] = [randomUUID(), randomUUID()];
  const posts = [randomUUID(), randomUUID(), randomUUID()];

  beforeAll(async () => {
    buildBackend();
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, logger);
    const core = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
    const meta = (actor: string, now = new Date()) => ({
      commandId: randomUUID(),
      correlationId: randomUUID(),
      actor,
      now,
    });
    const authors = [ada, ada, bob];
    for (const [i, postId] of posts.entries()) {
      await executeDecider(
        core,
        postStream(postId),
        post,
        { type: 'PublishPost', postId, authorId: authors[i]!, text: i === 2 ? 'Secret words' : 'Same words' },
        // The first post a day ago, the others now.
        meta(authors[i]!, i === 0 ? new Date(Date.now() - 86_400_000) : new Date()),
      );
    }
    await executeDecider(
      core,
      likeStream(posts[2]!, ada),
      like,
      { type: 'LikePost', postId: posts[2]!, userId: ada, postAuthorId: bob },
      meta(ada),
    );
    await core.stop();
    env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: database.url,
      PERSONAL_DATA_KEY: key.toString('base64'),
      EVENTS_PSEUDONYM_KEY: 'analyst-key-1',
      LOG_LEVEL: 'warn',
    };
  }, 120_000);
  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
  });

  const events = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['backend/dist/cli/events.js', ...args], { cwd: repoRoot, env });
    return stdout;
  };
  const lines = async (...args: string[]) =>
    (await events(...args))
      .split('\n')
      .filter(Boolean)
      .map(
        (l) =>
          JSON.parse(l) as {
            stream: string;
            type: string;
            actor: string;
            position: string;
            data: Record<string, unknown>;
          },
      );

  it('lists streams by prefix with their counts', async () => {
    const listed = (await events('ls', 'feed-')).split('\n').filter(Boolean);
    expect(listed).toEqual(
      [...posts.map((p) => `feed-post-${p}\t1`), `feed-like-${posts[2]}-${ada}\t1`].sort((a, b) => a.localeCompare(b)),
    );
  });

  it('prints a stream and the log as NDJSON, filtered, with personal fields as pseudonyms', async () => {
    const [only] = await lines('cat', `feed-post-${posts[2]}`);
    expect(only).toMatchObject({ stream: `feed-post-${posts[2]}`, type: 'PostPublished', actor: bob, revision: 0 });
    expect(only!.data.text).toMatch(/^pseudonym:/);

    const all = await lines('all', '--context', 'feed');
    expect(all.map((e) => e.type)).toEqual(['PostPublished', 'PostPublished', 'PostPublished', 'PostLiked']);
    const output = await events('all');
    expect(output).not.toContain('Same words');
    expect(output).not.toContain('Secret words');
    // The same words read the same: an analyst may count them, not read them.
    const texts = all.filter((e) => e.type === 'PostPublished').map((e) => e.data.text);
    expect(new Set(texts).size).toBe(2);
    expect(texts[0]).toBe(texts[1]);

    expect((await lines('all', '--type', 'PostLiked')).map((e) => e.data.userId)).toEqual([ada]);
    expect((await lines('all', '--context', 'feed', '--actor', bob)).map((e) => e.type)).toEqual(['PostPublished']);
    expect((await lines('all', '--context', 'feed', '--since', '1h')).length).toBe(3);
    expect((await lines('all', '--context', 'feed', '--until', '1h')).length).toBe(1);
    // Resumed after a position: exactly what came after it.
    expect(
      (await lines('all', '--context', 'feed', '--from-position', all[1]!.position)).map((e) => e.position),
    ).toEqual(all.slice(2).map((e) => e.position));
  });

  it('says what is wrong with a bad filter or an unknown stream, on one line, and fails', async () => {
    await expect(events('all', '--type', 'PostPublishd')).rejects.toMatchObject({
      stderr: expect.stringMatching(/^events failed: unknown event type PostPublishd; there are: /),
    });
    await expect(events('cat', 'feed-post-nope')).rejects.toMatchObject({
      stderr: 'events failed: no stream named feed-post-nope (npm run events -- ls lists them)\n',
    });
  });

  it('follows new events live, says where to go on after Ctrl+C, and goes on from there with none lost or repeated', async () => {
    const core = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
    const publish = (text: string) => {
      const postId = randomUUID();
      const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: ada, now: new Date() };
      return executeDecider(core, postStream(postId), post, { type: 'PublishPost', postId, authorId: ada, text }, meta);
    };
    const follow = (...args: string[]) => {
      const child = spawn(process.execPath, ['backend/dist/cli/events.js', 'follow', '--context', 'feed', ...args], {
        cwd: repoRoot,
        env,
      });
      const out: string[] = [];
      let buffered = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => {
        buffered += c.toString();
        const parts = buffered.split('\n');
        buffered = parts.pop()!;
        out.push(...parts);
      });
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const texts = () => out.map((l) => (JSON.parse(l) as { stream: string }).stream);
      return { child, texts, err: () => err, exited };
    };
    try {
      const before = await lines('all', '--context', 'feed');
      const first = follow('--from-position', before.at(-1)!.position);
      // Give it a moment to subscribe, then write while it follows.
      await new Promise((r) => setTimeout(r, 1_500));
      const one = await publish('live one');
      const two = await publish('live two');
      await expect.poll(first.texts, { timeout: 15_000 }).toHaveLength(2);
      first.child.kill('SIGINT');
      expect(await first.exited).toBe(0);
      const resume = /--from-position (\d+:\d+)/.exec(first.err())?.[1];
      expect(first.err()).toMatch(/^stopped; go on with: npm run events -- follow --from-position \d+:\d+\n$/);

      // Written while nobody follows: the next run starts with it, and repeats nothing.
      const three = await publish('while stopped');
      const second = follow('--from-position', resume!);
      await expect.poll(second.texts, { timeout: 15_000 }).toHaveLength(1);
      await new Promise((r) => setTimeout(r, 500));
      second.child.kill('SIGINT');
      await second.exited;
      expect([...first.texts(), ...second.texts()]).toEqual(
        [one, two, three].map((r) => `feed-post-${(r.events[0]!.data as { postId: string }).postId}`),
      );
    } finally {
      await core.stop();
    }
  }, 60_000);

  it('ends quietly when the reader closes the pipe (| head)', async () => {
    const child = spawn(process.execPath, ['backend/dist/cli/events.js', 'all'], { cwd: repoRoot, env });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect([code, err]).toEqual([0, '']);
  });

  describe('an account at any moment, a Parquet export, and personal data for admins only', () => {
    const grace = randomUUID();
    const graceAddress = `grace-${grace.slice(0, 8)}@example.com`;
    const day = 86_400_000;
    /** The `users` read model as it stood after each step: what the dashboard showed at that moment. */
    const seen: { role: string; first_name: string | null }[] = [];
    let core: EventCore;

    beforeAll(async () => {
      core = await EventCore.create({ db, databaseUrl: database.url, keyEncryptionKey: key, contexts, logger });
      await core.start();
      const step = async (when: number, ...commands: Parameters<typeof account.decide>[0][]) => {
        let position;
        for (const command of commands) {
          const meta = { commandId: randomUUID(), correlationId: randomUUID(), actor: grace, now: new Date(when) };
          ({ position } = await executeDecider(core, accountStream(grace), account, command, meta));
        }
        await core.projections.caughtUpTo(position!, 10_000);
        seen.push(
          await db
            .selectFrom('users')
            .select(['role', 'first_name'])
            .where('user_id', '=', grace)
            .executeTakeFirstOrThrow(),
        );
      };
      // Eight days ago she signed up (sign-up claims the address first); two days ago she became an admin and changed
      // her first name.
      await db
        .insertInto('account_emails')
        .values({ email_lower: graceAddress, user_id: grace, claimed_at: new Date(Date.now() - 8 * day) })
        .execute();
      await step(
        Date.now() - 8 * day,
        { type: 'Register', userId: grace, emailAddress: graceAddress, passwordHash: 'argon2-hash' },
        { type: 'VerifyEmail' },
        {
          type: 'CompleteProfile',
          firstName: 'Grace',
          lastName: 'Hopper',
          username: `grace${grace.slice(0, 6)}`,
          gender: 'female',
          birthDate: '1990-12-09',
        },
      );
      await step(
        Date.now() - 2 * day,
        { type: 'SetRole', role: 'admin', by: 'system', reason: 'test' },
        { type: 'EditProfile', firstName: 'Amazing' },
      );
    }, 60_000);
    afterAll(async () => {
      await core?.stop();
    });

    type Folded = {
      revision: number | null;
      time: string | null;
      state: { role?: string; profile?: { firstName?: string } };
    };
    const state = async (...args: string[]) =>
      JSON.parse(await events('state', accountStream(grace), ...args)) as Folded;

    it('folds an account with its own decider at any moment, as the read model showed it then', async () => {
      const weekAgo = await state('--at', '7d');
      expect(weekAgo).toMatchObject({ revision: 2, state: { status: 'registered', role: seen[0]!.role } });
      expect(seen[0]!.role).toBe('user');
      // Personal fields stay pseudonyms, the same one for the same name.
      expect(weekAgo.state.profile!.firstName).toMatch(/^pseudonym:/);

      const now = await state();
      expect(now).toMatchObject({ revision: 4, state: { role: seen[1]!.role } });
      expect(seen[1]!.role).toBe('admin');
      expect(now.state.profile!.firstName).not.toBe(weekAgo.state.profile!.firstName);
      // By revision: the same as by time.
      expect(await state('--at', '2')).toEqual(weekAgo);
      // Before it existed: its decider's initial state, no revision.
      expect(await state('--at', '30d')).toMatchObject({ revision: null, state: { status: 'none' } });
    });

    it('opens personal fields only for an admin, with the key, and records who read what', async () => {
      const staffStream = `admin-staff-${grace}`;
      const records = async () =>
        (await core.store.readStream(staffStream)).filter((e) => e.type === 'PersonalDataRead').map((e) => e.data);
      // Not an admin's address: refused, and nothing recorded.
      await expect(
        events('state', accountStream(grace), '--with-personal-data', '--as', 'nobody@example.com'),
      ).rejects.toMatchObject({
        stderr: "events failed: --as: nobody@example.com is not an admin's address; personal data is for admins only\n",
      });
      await expect(events('all', '--with-personal-data')).rejects.toMatchObject({
        stderr: expect.stringMatching(/needs --as <your admin e-mail address>/),
      });
      expect(await records()).toEqual([]);

      const clear = JSON.parse(
        await events('state', accountStream(grace), '--at', '7d', '--with-personal-data', '--as', graceAddress),
      ) as Folded;
      expect(clear.state.profile!.firstName).toBe('Grace');
      expect(await records()).toEqual([
        {
          staffId: grace,
          verb: 'state',
          arguments: `state ${accountStream(grace)} --at 7d --with-personal-data`,
          at: expect.any(String),
        },
      ]);
    });

    it('exports Parquet by day and context that DuckDB reads back whole, personal fields as pseudonyms', async () => {
      const out = path.join(tmpdir(), `serendip-export-${randomUUID()}`);
      const clearOut = `${out}-clear`;
      const duck = await (await DuckDBInstance.create(':memory:')).connect();
      const query = async (dir: string, sql: string) =>
        (
          await duck.runAndReadAll(
            sql.replace('EXPORT', `read_parquet('${dir}/**/*.parquet', hive_partitioning = true)`),
          )
        ).getRowObjectsJson();
      try {
        const { stderr } = await run(process.execPath, ['backend/dist/cli/events.js', 'export', '--out', out], {
          cwd: repoRoot,
          env,
        });
        expect(stderr).toMatch(
          /exported \d+ events in [\d.]+ s \(\d+ events\/s\) to .*: \d+ Parquet files?, by day and context\n$/,
        );
        const logged = (await events('all')).split('\n').filter(Boolean).length;
        expect(await query(out, 'select count(*)::int as n from EXPORT')).toEqual([{ n: logged }]);
        // Partitioned by day and context, as directories.
        expect(await readdir(out)).toEqual(expect.arrayContaining([`day=${new Date().toISOString().slice(0, 10)}`]));
        const published = (await events('all', '--type', 'PostPublished')).split('\n').filter(Boolean).length;
        expect(
          await query(out, "select count(*)::int as n from EXPORT where context = 'feed' and type = 'PostPublished'"),
        ).toEqual([{ n: published }]);
        // No personal field in the clear: the words, the name, the address.
        expect(
          await query(
            out,
            "select count(*)::int as n from EXPORT where data like '%words%' or data like '%Grace%' or data like '%@example.com%'",
          ),
        ).toEqual([{ n: 0 }]);
        expect(
          await query(
            out,
            "select count(distinct json_extract_string(data, '$.text'))::int as n from EXPORT where type = 'PostPublished'",
          ),
        ).toEqual([{ n: published - 1 }]); // two posts say the same words

        // An admin's export has them, and is on record.
        await run(
          process.execPath,
          [
            'backend/dist/cli/events.js',
            'export',
            '--type',
            'PostPublished',
            '--out',
            clearOut,
            '--with-personal-data',
            '--as',
            graceAddress,
          ],
          { cwd: repoRoot, env },
        );
        expect(
          (await query(clearOut, "select json_extract_string(data, '$.text') as text from EXPORT order by text")).map(
            (r) => r.text,
          ),
        ).toEqual(expect.arrayContaining(['Same words', 'Same words', 'Secret words']));
        const verbs = (await core.store.readStream(`admin-staff-${grace}`)).map(
          (e) => (e.data as { verb: string }).verb,
        );
        expect(verbs).toContain('export');

        // Never over an earlier export, and nothing half-written left behind.
        await expect(events('export', '--out', out)).rejects.toMatchObject({
          stderr: `events failed: --out: ${out} is not empty; name a new directory\n`,
        });
        expect(existsSync(`${out}.partial-`)).toBe(false);
        expect((await readdir(path.dirname(out))).filter((f) => f.includes('.partial-'))).toEqual([]);
      } finally {
        duck.closeSync();
        await rm(out, { recursive: true, force: true });
        await rm(clearOut, { recursive: true, force: true });
      }
    }, 60_000);
  });
});
