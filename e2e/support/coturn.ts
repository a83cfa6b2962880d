import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../backend/src/test-support/global-postgres.js';

export const TURNSERVER_BIN = '/usr/bin/turnserver';

export interface Coturn {
  /** What the backend is given: TURN_URLS and TURN_SECRET. */
  env: { TURN_URLS: string; TURN_SECRET: string };
  stop(): Promise<void>;
}

/** Why the relayed-call test cannot run here, or undefined. CI (REQUIRE_BROWSER=1) never skips. */
export function coturnUnavailable(): string | undefined {
  if (existsSync(TURNSERVER_BIN)) return undefined;
  const reason = `no coturn at ${TURNSERVER_BIN} (install it with \`apt-get install -y coturn\`)`;
  if (process.env.REQUIRE_BROWSER === '1') throw new Error(`the call tests are required but there is ${reason}`);
  console.warn(`Skipping the relayed-call test: ${reason}`);
  return reason;
}

/**
 * A coturn of the test's own on 127.0.0.1, checking credentials with a shared secret as production does
 * (docker-compose.yml). Loopback peers are allowed: both browsers of the test live on this machine.
 */
export async function startCoturn(): Promise<Coturn> {
  const port = await freePort();
  const secret = randomBytes(16).toString('hex');
  const minPort = 40_000 + Math.floor(Math.random() * 20_000);
  const child: ChildProcess = spawn(
    TURNSERVER_BIN,
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      `--min-port=${minPort}`,
      `--max-port=${minPort + 200}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=serendip',
      '--allow-loopback-peers',
      '--no-cli',
      '--no-tls',
      '--no-dtls',
      '--no-multicast-peers',
      '--log-file=stdout',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  await new Promise<void>((resolve, reject) => {
    const until = Date.now() + 10_000;
    const check = setInterval(() => {
      if (/listener opened on|Total General servers/i.test(output)) {
        clearInterval(check);
        resolve();
      } else if (child.exitCode !== null || Date.now() > until) {
        clearInterval(check);
        child.kill('SIGKILL');
        reject(new Error(`coturn did not start:\n${output}`));
      }
    }, 100);
  });
  return {
    env: { TURN_URLS: `turn:127.0.0.1:${port}?transport=udp`, TURN_SECRET: secret },
    stop: async () => {
      process.off('exit', killOnExit);
      child.kill('SIGTERM');
      await exited;
    },
  };
}
