import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../test-support/global-postgres.js';
import { freeUdpPort, TurnClient, turnCredentials } from '../test-support/turn-client.js';

const TURNSERVER = '/usr/bin/turnserver';
const SECRET = 'turn-test-secret';

/** coturn's flags exactly as docker-compose.yml gives them, with a free port and loopback in place of the host's. */
function composeFlags(port: number): string[] {
  const compose = parse(readFileSync(fileURLToPath(new URL('../../../docker-compose.yml', import.meta.url)), 'utf8'));
  const command = (compose as { services: { coturn: { command: string[] } } }).services.coturn.command;
  const flags = command
    .map((flag) => flag.replace(/\$\{TURN_SECRET[^}]*\}/, SECRET))
    .filter((flag) => !flag.startsWith('--listening-port=') && !/^--(min|max)-port=/.test(flag));
  const minPort = 41_000 + Math.floor(Math.random() * 20_000);
  return [
    ...flags,
    `--listening-port=${port}`,
    '--listening-ip=127.0.0.1',
    '--relay-ip=127.0.0.1',
    `--min-port=${minPort}`,
    `--max-port=${minPort + 100}`,
    '--log-file=stdout',
  ];
}

/**
 * TURN must not reach the private network (DESIGN.md "Shape": coturn runs on the host's network). A matched user holds
 * TURN credentials; with them, a permission to a loopback, private, link-local (cloud metadata) or CGNAT address must
 * be refused, or the relay becomes their way into NATS, the event store and the SFU's RPC.
 */
describe.skipIf(!existsSync(TURNSERVER) && process.env.REQUIRE_BROWSER !== '1')(
  'coturn as docker-compose.yml runs it',
  () => {
    let child: ChildProcess;
    let port: number;
    let output = '';

    beforeAll(async () => {
      port = await freePort();
      child = spawn(TURNSERVER, composeFlags(port), { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const until = Date.now() + 10_000;
      while (!/listener opened on|Total General servers/i.test(output)) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`coturn did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    afterAll(() => {
      child?.kill('SIGKILL');
    });

    async function client() {
      const { username, password } = turnCredentials(SECRET, 'user-1', 600);
      const turn = new TurnClient('127.0.0.1', port, username, password);
      expect(await turn.allocate()).toMatchObject({ ok: true });
      return turn;
    }

    it('relays to a public address, so calls still work', async () => {
      const turn = await client();
      try {
        expect(await turn.createPermission('203.0.113.5')).toMatchObject({ ok: true });
      } finally {
        await turn.close();
      }
    });

    it.each([
      ['loopback', '127.0.0.1'],
      ['private 10/8', '10.0.0.5'],
      ['private 172.16/12', '172.20.0.5'],
      ['private 192.168/16', '192.168.1.5'],
      ['link-local (cloud metadata)', '169.254.169.254'],
      ['CGNAT 100.64/10', '100.64.0.5'],
      ['this network 0/8', '0.0.0.1'],
    ])('refuses a permission to a %s peer (%s)', async (_kind, ip) => {
      const turn = await client();
      try {
        expect(await turn.createPermission(ip)).toMatchObject({ ok: false, code: 403 });
      } finally {
        await turn.close();
      }
    });

    // Why TURN credentials may live minutes only (TURN_CREDENTIAL_TTL_SECONDS): coturn checks them when a relay is
    // allocated, not when a call keeps it (refreshes, permissions), so a call outlasts them and a leaked copy does not.
    it('keeps a relay past its credentials, but allocates none with expired ones', async () => {
      const { username, password } = turnCredentials(SECRET, 'user-1', 2);
      const turn = new TurnClient('127.0.0.1', port, username, password);
      const late = new TurnClient('127.0.0.1', port, username, password);
      try {
        expect(await turn.allocate()).toMatchObject({ ok: true });
        await new Promise((r) => setTimeout(r, 3_500));
        expect(await turn.refresh()).toMatchObject({ ok: true });
        expect(await turn.createPermission('203.0.113.6')).toMatchObject({ ok: true });
        expect(await late.allocate()).toMatchObject({ ok: false, code: 401 });
      } finally {
        await turn.close();
        await late.close();
      }
    });

    it('gives an allocation back when a client closes, so the next client on that port allocates', async () => {
      const { username, password } = turnCredentials(SECRET, 'user-2', 600);
      const localPort = await freeUdpPort();
      const first = new TurnClient('127.0.0.1', port, username, password, localPort);
      expect(await first.allocate()).toMatchObject({ ok: true });
      await first.close();
      // coturn drops a deleted allocation on one of its next timer ticks; one left in place would answer 437 for
      // its whole lifetime (10 minutes here).
      let answer: { ok: boolean; code?: number } = { ok: false };
      for (const until = Date.now() + 5_000; !answer.ok && Date.now() < until;) {
        const next = new TurnClient('127.0.0.1', port, username, password, localPort);
        answer = await next.allocate();
        await next.close();
        if (!answer.ok) await new Promise((r) => setTimeout(r, 250));
      }
      expect(answer).toMatchObject({ ok: true });
    });

    it('relays over UDP only and never to multicast peers, with quotas per user', () => {
      const flags = composeFlags(port);
      for (const flag of ['--no-tcp-relay', '--no-multicast-peers']) expect(flags).toContain(flag);
      expect(flags.some((f) => /^--user-quota=\d+$/.test(f))).toBe(true);
      expect(flags.some((f) => /^--total-quota=\d+$/.test(f))).toBe(true);
    });
  },
);
