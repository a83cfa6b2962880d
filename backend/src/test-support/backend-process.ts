import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN_JS = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

/** Compiles the backend (incremental, quick when nothing changed) so process tests run the current code. */
export function buildBackend(): void {
  execFileSync(
    process.execPath,
    [fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url)), '-b', 'backend'],
    {
      cwd: repoRoot,
      stdio: 'pipe',
    },
  );
}

export interface BackendProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
}

/** Runs `node backend/dist/main.js` as `npm start` does, with only the given environment (plus PATH). */
export function startBackendProcess(env: Record<string, string>): BackendProcess {
  const child = spawn(process.execPath, [MAIN_JS], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls a URL until it answers 200 or the time is up. */
export async function waitForOk(url: string, timeoutMs: number, ended?: Promise<unknown>): Promise<Response> {
  let done = false;
  void ended?.then(() => (done = true));
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (done) throw new Error(`the process ended before ${url} answered`);
    try {
      const res = await fetch(url);
      if (res.ok) return res;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
