import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ParquetExport } from './parquet-export.js';

/** The export's last step over a real directory: it takes the place of an empty one, never of files put there since. */
describe('ParquetExport.finish', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });
  const exportTo = async (out: string) => {
    const scratch = path.join(tmpdir(), `serendip-export-scratch-${randomUUID()}`);
    dirs.push(scratch);
    const parquet = await ParquetExport.open(out, scratch);
    parquet.append({
      position: { commit: 1n, prepare: 1n },
      stream: 'feed-post-1',
      revision: 0n,
      type: 'PostPublished',
      version: 1,
      context: 'feed',
      time: '2026-11-26T10:00:00.000Z',
      actor: 'system',
      data: '{}',
    });
    return parquet;
  };

  it('fills an empty directory', async () => {
    const out = path.join(tmpdir(), `serendip-export-${randomUUID()}`);
    dirs.push(out);
    await mkdir(out);
    expect(await (await exportTo(out)).finish()).toEqual(['day=2026-11-26/context=feed/data_0.parquet']);
    // The log, maybe with personal fields in the clear: for its owner only.
    expect((await stat(out)).mode & 0o777).toBe(0o700);
  });

  it('leaves alone what someone put in the directory while it exported, and says so', async () => {
    const out = path.join(tmpdir(), `serendip-export-${randomUUID()}`);
    dirs.push(out);
    await mkdir(out);
    const parquet = await exportTo(out);
    await writeFile(path.join(out, 'notes.txt'), 'my own work');
    await expect(parquet.finish()).rejects.toThrow(/was written to during the export; nothing in it was replaced/);
    expect(await readdir(out)).toEqual(['notes.txt']);
    expect(await readFile(path.join(out, 'notes.txt'), 'utf8')).toBe('my own work');
    expect(existsSync(`${out}.partial-${process.pid}`)).toBe(false);
  });
});
