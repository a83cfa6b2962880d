/**
 * `npm run bench:realtime -- --json`: an announcement to everyone (spec 3 Notification, DESIGN.md "Fan-out: NATS")
 * reaching 10,000 open system sockets through the realtime layer: `Realtime.toEveryone` publishes ONE message on the
 * bus (NATS when NATS_URL is set, as in production; else the in-process bus), the node's subscription hands it to
 * every signed-in system socket it holds, each `LiveSocket.push` emitting it as the system gateway's does. Measured:
 * delivery time (send to arrival at the client, p50 and p99 over every socket of 3 rounds after a warm-up) and the
 * backend process's memory per socket (`process.memoryUsage()` after a GC, before the sockets open and once all are
 * registered: RSS, which holds the heap, Socket.IO's and ws's buffers; the heap alone is printed too). Baseline, same
 * run, same payload and clients: bare Socket.IO, `io.emit` to 10,000 sockets with nothing in between.
 *
 * The test-only shortcut: signing 10,000 people in would measure identity, not delivery. Each socket's handshake names
 * its user (`auth.userId`), and the connection handler registers it with `Realtime.register` exactly as the system
 * gateway does once it has read the session (a `LiveSocket` whose `push` is `socket.emit`): from there on it is the
 * product's code path (its own `user.<id>` subscription, the everyone subject, presence rows in Postgres).
 *
 * The clients run in a child process (bench/realtime-clients.ts): on 2 cores, the backend's figures must not include
 * 10,000 clients' work. Both processes read the same clock (`performance.timeOrigin + now()`).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import type { NotificationView } from '@serendip/proto';
import { createDb, migrateToLatest } from '@serendip/backend/platform/database/database.js';
import type { EventCore } from '@serendip/backend/platform/event-core/event-core.js';
import { createMessageBus } from '@serendip/backend/platform/messaging/create-message-bus.js';
import { Presence } from '@serendip/backend/platform/realtime/presence.js';
import { type LiveSocket, Realtime, socketIoGroup } from '@serendip/backend/platform/realtime/realtime.js';
import { pino } from 'pino';
import type { Server as IoServer, ServerOptions } from '../backend/node_modules/socket.io/dist/index.js';
import { benchDatabase } from './bench-database.js';
import { IpcChild, memory } from './child-process.js';
import { percentile, report } from './harness.js';
import type { ClientCommand, ClientReport } from './realtime-clients.js';

const SOCKETS = Number(process.env.BENCH_SOCKETS ?? 10_000);
const ROUNDS = 3;
const ROUND_TIMEOUT_MS = 60_000;
const json = process.argv.includes('--json');
const logger = pino({ level: 'error' });
// Socket.IO is the backend's dependency (the bench has none of its own): taken from there.
const { Server } = createRequire(new URL('../../backend/package.json', import.meta.url))('socket.io') as {
  Server: new (port: number, options: Partial<ServerOptions>) => IoServer;
};

/** An announcement to everyone as the notifications context pushes it; `details` carries the send time and round. */
function announcement(
  round: number,
): Omit<NotificationView, 'details'> & { details: { sentAt: number; round: number } } {
  return {
    _id: randomUUID(),
    kind: 'announcement',
    title: 'Scheduled maintenance tonight',
    description: 'Serendip will be unavailable from 02:00 to 02:15 UTC while we upgrade our servers.',
    forceOpen: false,
    read: false,
    createdAt: new Date().toISOString(),
    details: { sentAt: performance.timeOrigin + performance.now(), round },
  };
}

const say = (line: string) => process.stderr.write(`${line}\n`);

type Clients = IpcChild<ClientCommand, ClientReport>;

interface Run {
  latenciesMs: number[];
  missing: number;
  rssPerSocket: number;
  heapPerSocket: number;
  connectMs: number;
}

/**
 * Opens the server, connects the clients, measures memory once every socket is `ready`, then times `ROUNDS`
 * announcements (after one warm-up) sent by `announce`.
 */
async function measure(
  clients: Clients,
  name: string,
  serve: (io: IoServer) => {
    ready: () => boolean;
    announce: (round: number) => Promise<void>;
    close: () => Promise<void>;
  },
): Promise<Run> {
  const before = memory();
  const io = new Server(0, { transports: ['websocket'] });
  const port = await new Promise<number>((resolve) => {
    const address = io.httpServer.address();
    if (address && typeof address === 'object') resolve(address.port);
    else io.httpServer.once('listening', () => resolve((io.httpServer.address() as { port: number }).port));
  });
  const server = serve(io);
  const userIds = Array.from({ length: SOCKETS }, () => randomUUID());
  const connected = await clients.ask({ type: 'connect', url: `http://127.0.0.1:${port}`, userIds }, 'connected');
  while (!server.ready()) await new Promise((r) => setTimeout(r, 50));
  // Presence's batched writes and the subscriptions settle before the reading.
  await new Promise((r) => setTimeout(r, 1_000));
  const after = memory();
  say(`${name}: ${connected.count} sockets open in ${connected.ms} ms`);

  const latenciesMs: number[] = [];
  let missing = 0;
  for (let round = 0; round <= ROUNDS; round++) {
    const arrived = clients.next('round');
    await clients.ask({ type: 'expect', round, timeoutMs: ROUND_TIMEOUT_MS }, 'listening');
    await server.announce(round);
    const result = await arrived;
    if (round === 0) continue; // warm-up
    latenciesMs.push(...result.latenciesMs);
    missing += result.expected - result.latenciesMs.length;
    await new Promise((r) => setTimeout(r, 200));
  }
  await clients.ask({ type: 'close' }, 'closed');
  await server.close();
  await new Promise<void>((resolve) => io.close(() => resolve()));
  return {
    latenciesMs,
    missing,
    rssPerSocket: Math.round((after.rss - before.rss) / SOCKETS),
    heapPerSocket: Math.round((after.heapUsed - before.heapUsed) / SOCKETS),
    connectMs: connected.ms,
  };
}

async function main() {
  const database = await benchDatabase('realtime', 54397, logger);
  const db = createDb(database.url);
  await migrateToLatest(db, logger);
  const bus = createMessageBus({ natsUrl: process.env.NATS_URL, logger });
  const presence = new Presence(db);
  await presence.onApplicationBootstrap();
  // Realtime takes only the core's bus.
  const realtime = new Realtime({ bus } as unknown as EventCore, presence);
  const clients: Clients = new IpcChild(new URL('./realtime-clients.js', import.meta.url));
  try {
    const ours = await measure(clients, 'realtime', (io) => {
      let registered = 0;
      const socketIds = new WeakMap<LiveSocket, string>();
      const group = socketIoGroup(io, (live) => socketIds.get(live));
      const unregisters = new Set<Promise<() => Promise<void>>>();
      io.on('connection', (socket) => {
        const userId = String((socket.handshake.auth as { userId?: unknown }).userId);
        // As SystemGateway.register builds it once the session is read.
        const live: LiveSocket = {
          userId,
          sessionId: `bench-${userId}`,
          roles: [],
          device: 'desktop',
          push: (event, payload) => (socket.emit as (event: string, payload: unknown) => boolean)(event, payload),
          endSession: () => socket.disconnect(true),
          group,
        };
        socketIds.set(live, socket.id);
        const registration = realtime.register(live);
        unregisters.add(registration);
        void registration.then(() => registered++);
        socket.on('disconnect', () => {
          unregisters.delete(registration);
          void registration.then((unregister) => unregister());
        });
      });
      return {
        ready: () => registered >= SOCKETS,
        announce: async (round) => {
          const { details, ...view } = announcement(round);
          await realtime.toEveryone('newNotification', { ...view, details }, randomUUID());
        },
        close: async () => {
          await Promise.all([...unregisters].map(async (r) => (await r)()));
        },
      };
    });
    const bare = await measure(clients, 'bare Socket.IO', (io) => {
      let open = 0;
      io.on('connection', (socket) => {
        open++;
        socket.on('disconnect', () => open--);
      });
      return {
        ready: () => open >= SOCKETS,
        announce: async (round) => {
          io.emit('newNotification', { ...announcement(round), eventId: randomUUID() });
        },
        close: async () => undefined,
      };
    });

    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const ms = (value: number) => Math.round(value * 10) / 10;
    const oursSorted = sorted(ours.latenciesMs);
    const bareSorted = sorted(bare.latenciesMs);
    if (ours.missing || bare.missing) say(`missing deliveries: realtime ${ours.missing}, bare ${bare.missing}`);
    say(
      `realtime (${process.env.NATS_URL ? 'NATS' : 'in-process bus'}): p50 ${ms(percentile(oursSorted, 50))} ms, ` +
        `p99 ${ms(percentile(oursSorted, 99))} ms; ${ours.rssPerSocket} B RSS and ${ours.heapPerSocket} B heap per socket`,
    );
    say(
      `bare Socket.IO: p50 ${ms(percentile(bareSorted, 50))} ms, p99 ${ms(percentile(bareSorted, 99))} ms; ` +
        `${bare.rssPerSocket} B RSS and ${bare.heapPerSocket} B heap per socket`,
    );
    if (!json) say('');
    report({
      sockets: SOCKETS,
      deliveryP50Ms: ms(percentile(oursSorted, 50)),
      deliveryP99Ms: ms(percentile(oursSorted, 99)),
      bytesPerSocket: ours.rssPerSocket,
      bareDeliveryP99Ms: ms(percentile(bareSorted, 99)),
    });
  } finally {
    clients.kill();
    await presence.onApplicationShutdown();
    await bus.close();
    await db.destroy();
    await database.drop();
  }
}

await main();
