import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedPostgresProblem, folderPostgresCannotPass } from './postgres-access.mjs';
import { prepareStart } from './setup.mjs';

/** The steps as `npm start` runs them, recorded; `stopAt` names the one that stops the start (it throws). */
function recordedSteps(stopAt) {
  const ran = [];
  const step = (name) => () => {
    ran.push(name);
    if (name === stopAt) throw new Error(`${name} stopped the start`);
  };
  const names = ['checkNode', 'checkEmbeddedPostgres', 'ensureInstalled', 'ensureBuilt', 'ensureMediaWorker'];
  return { ran, steps: Object.fromEntries(names.map((name) => [name, step(name)])) };
}

describe('npm start', () => {
  it('checks the embedded Postgres can run before the install, the build and the media worker build', async () => {
    const { ran, steps } = recordedSteps();
    await prepareStart(steps, {});
    expect(ran).toEqual(['checkNode', 'checkEmbeddedPostgres', 'ensureInstalled', 'ensureBuilt', 'ensureMediaWorker']);
  });

  it('builds nothing when that check stops the start', async () => {
    const { ran, steps } = recordedSteps('checkEmbeddedPostgres');
    await expect(prepareStart(steps, {})).rejects.toThrow('checkEmbeddedPostgres stopped the start');
    expect(ran).toEqual(['checkNode', 'checkEmbeddedPostgres']);
  });
});

describe('the embedded Postgres folder check', () => {
  let scratch;
  afterEach(() => {
    if (!scratch) return;
    chmodSync(path.join(scratch, 'home'), 0o755);
    rmSync(scratch, { recursive: true, force: true });
  });

  /** scratch/home (mode 700, like a root's home) holding the project, and scratch/open (755). */
  function folders() {
    scratch = mkdtempSync(path.join(tmpdir(), 'serendip-pg-'));
    chmodSync(scratch, 0o755);
    const project = path.join(scratch, 'home', 'serendip');
    mkdirSync(path.join(project, 'node_modules'), { recursive: true });
    mkdirSync(path.join(scratch, 'open', 'data'), { recursive: true });
    chmodSync(path.join(scratch, 'home'), 0o700);
    return { project, home: path.join(scratch, 'home') };
  }

  it('names the folder outside the project that others may not pass through, with its mode', () => {
    const { project, home } = folders();
    expect(folderPostgresCannotPass([path.join(project, '.data')], project)).toEqual({ dir: home, mode: 0o700 });
    expect(embeddedPostgresProblem({ env: {}, uid: 0, root: project })).toBe(
      `the embedded Postgres runs as the \`postgres\` user, who may not pass through ${home} (mode 700); ` +
        `allow it with \`chmod o+x ${home}\`, move the project, or set DATABASE_URL`,
    );
  });

  it('leaves the project’s own folders to the app, which lets the postgres user through them', () => {
    const { project } = folders();
    chmodSync(path.join(scratch, 'home'), 0o711);
    chmodSync(project, 0o700);
    expect(folderPostgresCannotPass([path.join(project, '.data', 'postgres')], project)).toBeUndefined();
  });

  it('checks a DATA_DIR elsewhere from its nearest existing folder', () => {
    const { project } = folders();
    chmodSync(path.join(scratch, 'home'), 0o711);
    const data = path.join(scratch, 'open', 'data', 'not-yet', 'postgres');
    expect(embeddedPostgresProblem({ env: { DATA_DIR: data }, uid: 0, root: project })).toBeUndefined();
    chmodSync(path.join(scratch, 'open'), 0o750);
    expect(embeddedPostgresProblem({ env: { DATA_DIR: data }, uid: 0, root: project })).toContain(
      `may not pass through ${path.join(scratch, 'open')} (mode 750)`,
    );
    chmodSync(path.join(scratch, 'open'), 0o755);
  });

  it('has nothing to say with DATABASE_URL set or when not root', () => {
    const { project } = folders();
    expect(
      embeddedPostgresProblem({ env: { DATABASE_URL: 'postgres://db/x' }, uid: 0, root: project }),
    ).toBeUndefined();
    expect(embeddedPostgresProblem({ env: {}, uid: 1000, root: project })).toBeUndefined();
  });
});
