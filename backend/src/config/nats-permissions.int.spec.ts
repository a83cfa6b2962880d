import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SFU_QUEUE, SFU_SUBJECTS } from '@serendip/proto';
import { connect, type NatsConnection, type NatsError } from 'nats';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { loadSfuConfig } from '../../../sfu/src/config.js';
import type { RunningSfu } from '../../../sfu/src/index.js';
import type { BusMessage } from '../platform/messaging/message-bus.js';
import { NatsBus } from '../platform/messaging/nats-bus.js';
import { eventually } from '../test-support/eventually.js';
import { freePort } from '../test-support/global-postgres.js';
import { mediasoupWorker } from '../test-support/mediasoup-worker.js';

const NATS_SERVER = '/usr/sbin/nats-server';
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const PASSWORDS = { NATS_APP_PASSWORD: 'apptestsecret', NATS_SFU_PASSWORD: 'sfutestsecret' };
const worker = mediasoupWorker();

interface NatsService {
  command: string[];
  environment?: Record<string, string>;
  volumes?: string[];
}

/**
 * nats-server as docker-compose.yml runs it: its command and environment (with test passwords), the config file it
 * mounts read from the repository, the JetStream store in `storeDir`, on loopback and a free port (-p overrides
 * the file's port), without monitoring (-m 0: its port is fixed).
 */
function composeNats(port: number, storeDir: string): { args: string[]; env: Record<string, string> } {
  const compose = parse(readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8')) as {
    services: { nats: NatsService };
  };
  const nats = compose.services.nats;
  const mounts = new Map(
    (nats.volumes ?? []).map((volume) => {
      const [from, to] = volume.split(':') as [string, string];
      return [to, from.startsWith('.') ? path.join(repoRoot, from) : storeDir];
    }),
  );
  const args: string[] = [];
  for (let i = 0; i < nats.command.length; i++) {
    const arg = nats.command[i]!;
    if (arg === '-m' || arg === '--http_port') {
      i++;
      continue;
    }
    args.push(mounts.get(arg) ?? arg);
  }
  const env = Object.fromEntries(
    Object.entries(nats.environment ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{(\w+)[^}]*\}/g, (_, variable: string) => PASSWORDS[variable as keyof typeof PASSWORDS] ?? ''),
    ]),
  );
  return { args: [...args, '-a', '127.0.0.1', '-p', String(port), '-m', '0'], env };
}

/** What one connection was refused by the server (permission violations), and what reached it. */
class Seen {
  readonly refused: string[] = [];
  readonly messages: string[] = [];
  constructor(nc: NatsConnection) {
    void (async () => {
      for await (const status of nc.status()) {
        const context = (status as { permissionContext?: { operation: string; subject: string } }).permissionContext;
        if (context) this.refused.push(`${context.operation} ${context.subject}`);
      }
    })();
  }
}

const logger = pino({ level: 'silent' });
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/**
 * A media node holds the `sfu` NATS user; whoever gets its password (a compromised SFU host, a leaked .env on it)
 * must not read signalling, chat or events, nor drive other SFU nodes as the backend would (DESIGN.md "Shape":
 * the backend names rooms and peers from its own records; a request on sfu.node.* must come from it).
 */
describe.skipIf(!existsSync(NATS_SERVER))(
  'NATS with the shipped permissions: the sfu user cannot read or forge the backend traffic',
  () => {
    let child: ChildProcess;
    let storeDir: string;
    let port: number;
    let output = '';
    const open: NatsConnection[] = [];
    const buses: NatsBus[] = [];
    let sfuNode: RunningSfu | undefined;

    const url = (user?: keyof typeof USERS) =>
      user ? `nats://${user}:${USERS[user]}@127.0.0.1:${port}` : `nats://127.0.0.1:${port}`;
    const USERS = { app: PASSWORDS.NATS_APP_PASSWORD, sfu: PASSWORDS.NATS_SFU_PASSWORD };

    async function as(user: keyof typeof USERS): Promise<NatsConnection> {
      const nc = await connect({ servers: `127.0.0.1:${port}`, user, pass: USERS[user], reconnect: false });
      open.push(nc);
      return nc;
    }
    function backendBus(): NatsBus {
      const bus = new NatsBus({ url: url('app'), logger });
      buses.push(bus);
      return bus;
    }

    beforeAll(async () => {
      port = await freePort();
      storeDir = await mkdtemp(path.join(os.tmpdir(), 'serendip-nats-perms-'));
      const { args, env } = composeNats(port, storeDir);
      child = spawn(NATS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
      child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
      const until = Date.now() + 10_000;
      while (!output.includes('Server is ready')) {
        if (child.exitCode !== null || Date.now() > until) throw new Error(`nats-server did not start:\n${output}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    afterAll(async () => {
      await sfuNode?.stop();
      await Promise.all(buses.map((b) => b.close()));
      await Promise.all(open.map((nc) => nc.close().catch(() => undefined)));
      child?.kill('SIGKILL');
      if (storeDir) await rm(storeDir, { recursive: true, force: true });
    });

    it('refuses a connection without a user, and one with a wrong password', async () => {
      const attempt = (credentials: { user?: string; pass?: string }) =>
        connect({ servers: `127.0.0.1:${port}`, reconnect: false, ...credentials }).then(
          async (nc) => {
            await nc.close();
            return 'connected';
          },
          (error: NatsError) => error.code,
        );
      expect(await attempt({})).toBe('AUTHORIZATION_VIOLATION');
      expect(await attempt({ user: 'sfu', pass: 'changeit' })).toBe('AUTHORIZATION_VIOLATION');
    });

    it('the sfu user reads no signalling, chat, events or replies meant for the backend', async () => {
      const sfu = await as('sfu');
      const seen = new Seen(sfu);
      const wanted = ['>', 'evt.>', 'user.>', 'role.>', 'matching.>', '_INBOX.>', 'sfu.>', '$JS.>'];
      const subscriptionErrors: string[] = [];
      for (const subject of wanted) {
        sfu.subscribe(subject, {
          callback: (error: NatsError | null, message) => {
            if (error) subscriptionErrors.push(`${subject} ${error.code}`);
            else seen.messages.push(message.subject);
          },
        });
      }
      await sfu.flush();

      // What the backend sends: a chat push, a session ending, a role broadcast, a matching request, an event.
      const bus = backendBus();
      await bus.publish({ subject: 'user.u-1', id: 'm1', data: { kind: 'emit', event: 'chat', payload: 'hi' } });
      await bus.publish({ subject: 'user.u-1.video', id: 'm2', data: { kind: 'match' } });
      await bus.publish({ subject: 'role.admin', id: 'm3', data: { kind: 'emit' } });
      await bus.publish({ subject: 'matching.requests', id: 'm4', data: { kind: 'leave' } });
      await bus.publish({ subject: 'evt.identity.SessionEnded', id: 'm5', data: { userId: 'u-1' } });

      await new Promise((r) => setTimeout(r, 300));
      expect(seen.messages).toEqual([]);
      expect(subscriptionErrors.sort()).toEqual(wanted.map((s) => `${s} PERMISSIONS_VIOLATION`).sort());
      // Nor through JetStream: the stream holds every integration event of the last days.
      await expect(sfu.jetstreamManager().then((jsm) => jsm.streams.info('SERENDIP_EVENTS'))).rejects.toMatchObject({
        code: 'PERMISSIONS_VIOLATION',
      });
    });

    it('the sfu user cannot ask a node for a snapshot or a join, place rooms, or forge events and pushes', async () => {
      // Stand-ins for what listens on these subjects: an SFU node, the room placer, the sockets, the coordinator.
      const app = await as('app');
      // The stand-ins go after this test: the real node below must be the only one answering.
      onTestFinished(() => app.close());
      const reached: string[] = [];
      const listen = (subject: string, queue?: string) =>
        app.subscribe(subject, { queue, callback: (_e, m) => void reached.push(m.subject) });
      listen(SFU_SUBJECTS.node('node-1'));
      listen(SFU_SUBJECTS.createRoom, SFU_QUEUE);
      for (const subject of ['user.>', 'role.>', 'evt.>', 'matching.requests', '$JS.API.>']) listen(subject);
      await app.flush();

      const sfu = await as('sfu');
      const seen = new Seen(sfu);
      const snapshot = sfu
        .request(SFU_SUBJECTS.node('node-1'), encode({ type: 'snapshot', roomId: 'call-1', peerId: 'victim' }), {
          timeout: 1_000,
        })
        .catch((error: NatsError) => error.code);
      sfu.publish(SFU_SUBJECTS.node('node-1'), encode({ type: 'joinRoom', roomId: 'call-1', peerId: 'attacker' }));
      sfu.publish(SFU_SUBJECTS.createRoom, encode({ type: 'createRoom', roomId: 'call-2' }));
      sfu.publish('user.u-1', encode({ kind: 'end-session', id: 'x' }));
      sfu.publish('role.admin', encode({ kind: 'emit', id: 'x' }));
      sfu.publish('evt.moderation.UserBanned', encode({ userId: 'u-1' }));
      sfu.publish('matching.requests', encode({ kind: 'leave', userId: 'u-1' }));
      sfu.publish('$JS.API.STREAM.PURGE.SERENDIP_EVENTS', encode({}));
      await sfu.flush();
      await app.flush();

      await new Promise((r) => setTimeout(r, 300));
      expect(reached).toEqual([]);
      expect(await snapshot).toBe('PERMISSIONS_VIOLATION');
      expect(seen.refused).toEqual(
        expect.arrayContaining([
          'publish sfu.node.node-1',
          'publish sfu.rooms.create',
          'publish user.u-1',
          'publish evt.moderation.UserBanned',
          'publish $JS.API.STREAM.PURGE.SERENDIP_EVENTS',
        ]),
      );
    });

    it('the sfu user takes new rooms only in its queue group (alone it would see every room asked for)', async () => {
      const sfu = await as('sfu');
      const errors: string[] = [];
      sfu.subscribe(SFU_SUBJECTS.createRoom, { callback: (e) => void (e && errors.push(e.code)) });
      await sfu.flush();
      await eventually(() => errors.length === 1, 2_000);
      expect(errors).toEqual(['PERMISSIONS_VIOLATION']);
    });

    describe('what the two sides need still works', () => {
      let loads: BusMessage[];
      let lost: BusMessage[];
      let bus: NatsBus;
      let sfuSeen: Seen;
      let sfuNc: NatsConnection;
      const nodeId = 'node-perms';

      beforeAll(async () => {
        bus = backendBus();
        loads = [];
        lost = [];
        const subs = [
          bus.subscribe(SFU_SUBJECTS.load, (m) => void loads.push(m)),
          bus.subscribe(SFU_SUBJECTS.roomLost, (m) => void lost.push(m)),
        ];
        await Promise.all(subs.map((s) => s.ready));
        // A real media node on the sfu user, connected and started as sfu/src/main.ts does it.
        sfuNc = await connect({ ...loadSfuConfig({ NATS_URL: url('sfu') }).nats, reconnect: false });
        open.push(sfuNc);
        sfuSeen = new Seen(sfuNc);
        const { startSfu, natsRpcPort } = await import('../../../sfu/src/index.js');
        sfuNode = await startSfu({
          healthPort: 0,
          host: '127.0.0.1',
          logger,
          rpc: natsRpcPort(sfuNc),
          nodeId,
          workers: 1,
          rtcMinPort: 47_000,
          rtcMaxPort: 47_099,
        });
        await sfuNc.flush();
      }, 30_000);

      it('a media node on the sfu user announces its load and answers the backend on its node subject', async () => {
        await eventually(
          () => loads.length > 0,
          5_000,
          () => output,
        );
        expect(loads[0]!.data).toMatchObject({ nodeId });
        const answer = await bus.request(SFU_SUBJECTS.node(nodeId), { type: 'load' }, { timeoutMs: 3_000 });
        expect(answer).toMatchObject({ ok: true, result: { nodeId } });

        // A room its worker lost reaches the coordinator.
        const { natsRpcPort } = await import('../../../sfu/src/index.js');
        await natsRpcPort(sfuNc).publish(SFU_SUBJECTS.roomLost, { nodeId, roomId: 'call-9', reason: 'test' });
        await eventually(() => lost.length === 1, 3_000);
        expect(lost[0]!.data).toEqual({ nodeId, roomId: 'call-9', reason: 'test' });
        expect(sfuSeen.refused).toEqual([]);
      });

      it.skipIf(!worker)('the backend places a room on it and joins a peer, over the sfu user', async () => {
        const created = await bus.request(
          SFU_SUBJECTS.createRoom,
          { type: 'createRoom', roomId: 'call-1', peerIds: ['ada', 'bob'] },
          { timeoutMs: 5_000 },
        );
        expect(created).toMatchObject({ ok: true, result: { nodeId, roomId: 'call-1' } });
        const joined = await bus.request(
          SFU_SUBJECTS.node(nodeId),
          { type: 'joinRoom', roomId: 'call-1', peerId: 'ada' },
          { timeoutMs: 5_000 },
        );
        expect(joined).toMatchObject({ ok: true, result: { sendTransport: { id: expect.any(String) } } });
        expect(await bus.request(SFU_SUBJECTS.node(nodeId), { type: 'closeRoom', roomId: 'call-1' })).toMatchObject({
          ok: true,
          result: { closed: true },
        });
        expect(sfuSeen.refused).toEqual([]);
      });

      it('the backend keeps its whole bus on the app user: stream, durables, pushes, queues, requests', async () => {
        const other = backendBus();
        const got: string[] = [];
        const subs = [
          other.subscribe('evt.perms.*', (m) => void got.push(`durable ${m.subject}`), { durable: 'perms-test' }),
          other.subscribe('user.*', (m) => void got.push(`push ${m.subject}`)),
          other.subscribe('user.*.video', (m) => void got.push(`video ${m.subject}`)),
          other.subscribe('role.admin', (m) => void got.push(`role ${m.subject}`)),
          other.subscribe('matching.requests', (m) => void got.push(`queue ${m.subject}`), { queue: 'matchmaker' }),
          // A backend that runs its SFU in-process on NATS (SFU_EMBEDDED=true) serves and publishes as one.
          other.serve(SFU_SUBJECTS.node('embedded'), async () => ({ ok: true, result: 'embedded' })),
        ];
        await Promise.all(subs.map((s) => s.ready));
        await bus.publish({ subject: 'evt.perms.Happened', id: 'e1', data: {} });
        await bus.publish({ subject: 'user.u-2', id: 'e2', data: {} });
        await bus.publish({ subject: 'user.u-2.video', id: 'e3', data: {} });
        await bus.publish({ subject: 'role.admin', id: 'e4', data: {} });
        await bus.publish({ subject: 'matching.requests', id: 'e5', data: {} });
        await other.publish({ subject: SFU_SUBJECTS.load, id: 'e6', data: { nodeId: 'embedded' } });
        await eventually(
          () => got.length === 5,
          5_000,
          () => got.join(', '),
        );
        expect(got.sort()).toEqual([
          'durable evt.perms.Happened',
          'push user.u-2',
          'queue matching.requests',
          'role role.admin',
          'video user.u-2.video',
        ]);
        await eventually(() => loads.some((m) => (m.data as { nodeId: string }).nodeId === 'embedded'), 3_000);
        expect(await bus.request(SFU_SUBJECTS.node('embedded'), { type: 'load' })).toEqual({
          ok: true,
          result: 'embedded',
        });
      });
    });
  },
);
