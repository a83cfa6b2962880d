import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db, migrateToLatest } from '../platform/database/database.js';
import { buildBackend } from '../test-support/backend-process.js';
import { eventually } from '../test-support/eventually.js';
import { createTestDatabase } from '../test-support/test-database.js';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const EVENTS = 200_000;

/**
 * Ctrl+C during `npm run events -- export`: nothing stays behind, neither in the output's place (nor beside it) nor in
 * the export's scratch folder, which holds what Postgres copied out. The log is big enough (200,000 events, seeded
 * with SQL) for the export to be under way when the signal comes.
 */
describe('npm run events -- export, stopped with Ctrl+C', { timeout: 120_000 }, () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let db: Db;
  let scratchRoot: string;

  beforeAll(async () => {
    buildBackend();
    database = await createTestDatabase();
    db = createDb(database.url);
    await migrateToLatest(db, pino({ level: 'silent' }));
    await sql`
      insert into events (id, stream_id, revision, type, data, metadata)
      select gen_random_uuid(), 'matching-match-' || g, 0, 'MatchPaired',
             jsonb_build_object('matchId', md5(g::text), 'n', g),
             jsonb_build_object('actor', 'system', 'causationId', md5(g::text), 'correlationId', md5(g::text),
                                'schemaVersion', 1, 'occurredAt', '2026-11-20T10:00:00.000Z')
      from generate_series(1, ${EVENTS}::int) g`.execute(db);
    scratchRoot = await mkdtemp(path.join(tmpdir(), 'serendip-interrupted-'));
  }, 120_000);

  afterAll(async () => {
    await db?.destroy();
    await database?.drop();
    if (scratchRoot) await rm(scratchRoot, { recursive: true, force: true });
  });

  it.each([
    ['as it starts', (temp: string) => scratchIn(temp).length > 0],
    ['while Postgres copies out', (temp: string) => copiedBytes(temp) > 0],
  ])('removes what it wrote and says so, stopped %s', async (when, underWay) => {
    const out = path.join(scratchRoot, `out-${when.replaceAll(' ', '-')}`);
    // TMPDIR of its own: the export's scratch folder is made there, so the test sees it come and go.
    const temp = path.join(scratchRoot, `tmp-${when.replaceAll(' ', '-')}`);
    await mkdir(temp);
    const child = spawn(process.execPath, ['backend/dist/cli/events.js', 'export', '--out', out], {
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: database.url, TMPDIR: temp, LOG_LEVEL: 'warn' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

    await eventually(
      () => underWay(temp),
      30_000,
      () => `the export to be under way (${when})`,
    );
    child.kill('SIGINT');

    expect(await exited).toBe(130);
    expect(stderr).toContain('export stopped (SIGINT); nothing was written');
    expect(await readdir(temp)).toEqual([]);
    expect(existsSync(out)).toBe(false);
    expect((await readdir(scratchRoot)).filter((name) => name.startsWith(path.basename(out)))).toEqual([]);
  });
});

/** The export's scratch folders (`serendip-export-*`) in `temp` now. */
function scratchIn(temp: string): string[] {
  return readdirSync(temp)
    .filter((name) => name.startsWith('serendip-export-'))
    .map((name) => path.join(temp, name));
}

/** What Postgres's COPY has written into the scratch folder so far. */
function copiedBytes(temp: string): number {
  let bytes = 0;
  for (const folder of scratchIn(temp))
    for (const name of existsSync(folder) ? readdirSync(folder) : [])
      if (name.startsWith('copy-')) bytes += statSafe(path.join(folder, name));
  return bytes;
}

function statSafe(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0; // removed meanwhile
  }
}
