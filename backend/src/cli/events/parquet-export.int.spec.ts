import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, describe, expect, it } from 'vitest';
import { ParquetExport } from './parquet-export.js';

/** The export's last step over a real directory: it takes the place of an empty one, never of files put there since. */
describe('ParquetExport.finish', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  /** A new output folder's name (not made) and a scratch folder's, both removed after the test. */
  const folders = () => {
    const [out, scratch] = [`serendip-export-${randomUUID()}`, `serendip-export-scratch-${randomUUID()}`].map((name) =>
      path.join(tmpdir(), name),
    );
    dirs.push(out!, scratch!);
    return { out: out!, scratch: scratch! };
  };
  /** What DuckDB reads back of an export, as JSON rows. */
  const readBack = async (out: string, columns: string) => {
    const connection = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      return (
        await connection.runAndReadAll(
          `select ${columns} from read_parquet('${out}/**/*.parquet', hive_partitioning = true)`,
        )
      ).getRowObjectsJson();
    } finally {
      connection.closeSync();
    }
  };
  const exportTo = async (out: string) => {
    const { scratch } = folders();
    const parquet = await ParquetExport.open(out, scratch, new Map([['PostPublished', 'feed']]), 0);
    parquet.append({
      position: { commit: 1n, prepare: 1n },
      stream: 'feed-post-1',
      revision: 0n,
      type: 'PostPublished',
      version: 1,
      time: '2026-11-26T10:00:00.000Z',
      actor: 'system',
      data: '{}',
    });
    return parquet;
  };

  it('fills an empty directory', async () => {
    const { out } = folders();
    await mkdir(out);
    expect(await (await exportTo(out)).finish()).toEqual(['day=2026-11-26/context=feed/data_0.parquet']);
    // The log, maybe with personal fields in the clear: for its owner only.
    expect((await stat(out)).mode & 0o777).toBe(0o700);
  });

  it('keeps every character of what it writes: quotes, commas, new lines and accents', async () => {
    const { out, scratch } = folders();
    const parquet = await ParquetExport.open(out, scratch, new Map([['PostPublished', 'feed']]), 0);
    const data = JSON.stringify({ text: 'She said "hi", then,\nleft: café ☕ \\ done' });
    const actor = 'odd "actor", with\na new line';
    parquet.append({
      position: { commit: 7n, prepare: 3n },
      stream: 'feed-post-"1",x',
      revision: 2n,
      type: 'PostPublished',
      version: 1,
      time: '2026-11-26T23:59:59.999Z',
      actor,
      data,
    });
    await parquet.finish();
    const rows = await readBack(
      out,
      `commit_position::varchar as c, prepare_position::varchar as p, stream, revision::varchar as r, type,
       schema_version, epoch_ms(time) as ms, actor, data, day::varchar as day, context`,
    );
    expect(rows).toEqual([
      {
        c: '7',
        p: '3',
        stream: 'feed-post-"1",x',
        r: '2',
        type: 'PostPublished',
        schema_version: 1,
        ms: String(Date.parse('2026-11-26T23:59:59.999Z')),
        actor,
        data,
        day: '2026-11-26',
        context: 'feed',
      },
    ]);
  });

  it("reads Postgres's CSV as Postgres meant it: an empty text stays empty, a quoted new line stays in its field", async () => {
    const { out, scratch } = folders();
    const parquet = await ParquetExport.open(out, scratch, new Map([['MatchPaired', 'matching']]), 1);
    // As COPY … (format csv) writes them: "" is an empty text, an empty field a NULL.
    await writeFile(
      parquet.csvFiles[0]!,
      '9,4,"matching-match-1",0,MatchPaired,1,2026-11-25T08:00:00.000Z,"","{""note"": ""two\nlines""}"\n',
    );
    parquet.addCopied(1);
    expect(await parquet.finish()).toEqual(['day=2026-11-25/context=matching/data_0.parquet']);
    expect(await readBack(out, 'stream, actor, data')).toEqual([
      { stream: 'matching-match-1', actor: '', data: '{"note": "two\nlines"}' },
    ]);
  });

  it('leaves alone what someone put in the directory while it exported, and says so', async () => {
    const { out } = folders();
    await mkdir(out);
    const parquet = await exportTo(out);
    await writeFile(path.join(out, 'notes.txt'), 'my own work');
    await expect(parquet.finish()).rejects.toThrow(/was written to during the export; nothing in it was replaced/);
    expect(await readdir(out)).toEqual(['notes.txt']);
    expect(await readFile(path.join(out, 'notes.txt'), 'utf8')).toBe('my own work');
    expect(existsSync(`${out}.partial-${process.pid}`)).toBe(false);
  });
});
