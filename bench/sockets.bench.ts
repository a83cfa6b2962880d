/**
 * `npm run bench:sockets -- --json`: how many signed-in video sockets ONE backend process holds while every one of
 * them chats with its partner (a line every 3 s each, the crowd's sends spread evenly), the relay's p99 from send to
 * arrival at the partner, and the process's memory per socket; against bare Socket.IO relaying the same lines between
 * the same pairs in the same run. The ramp goes 2,000, 5,000, then 2,500 more a step up to 20,000 sockets
 * (`BENCH_SOCKETS` sets the top; `--quick`: 1,000 with shorter windows) and stops at the first step that misses the
 * goal (relay p99 over 50 ms, over 0.1 % of the window's lines lost, or sockets that did not open or pair). A process
 * holds at most its open-file limit of sockets: where that limit cannot be raised (20,000 here, and no
 * CAP_SYS_RESOURCE), the top step is what fits under it.
 *
 * What runs is the product's own code: the video gateway (`VideoGateway`, constructed here as Nest would, given the
 * bus, `Realtime` and the stubs below) on a Socket.IO server configured as `SerendipSocketAdapter` configures it
 * (WebSocket only, the Origin check), wired as Nest's adapter wires a gateway (`afterInit` with the namespace: its
 * handshake middleware; `handleConnection` on each connection, `handleDisconnect` on each disconnect). Each socket is
 * attached as in production: registered with `Realtime` (its `user.<id>` subscription) and its user's
 * `user.<id>.video` subscription on the bus (NATS at NATS_URL, default nats://127.0.0.1:4222; `NATS_URL=` with nothing
 * uses the in-process bus). Pairs are made as the matchmaker makes them: a `match` delivery published on each user's
 * video subject, which the gateway records on the socket and passes on as `matchFound`. A chat line then takes the
 * product's relay path: `sendChatMessage` checked by the gateway (rate limits, contract, partner alias), published as
 * a `relay` delivery on `videoSubject(partnerUserId)`, received through the partner's subscription, parsed against
 * the contract, and emitted by the gateway holding the partner's socket as `chatMessage`.
 *
 * Not included (test-only shortcuts): signing in. The handshake names its user (`auth.userId`); the stub
 * `SessionResolver` takes it as the session (no token check, no `auth_sessions` row read, at the handshake and at
 * connection) and the stub `UserDirectory` answers a finished adult profile (no `users` read). No Postgres is used:
 * the chat relay reads none. The SFU client and loads are stubs (chat never reaches them). No matchmaker runs: nobody
 * hears the `matching.requests` the gateway publishes (a disconnect's `socket-lost`). Only the video namespace is
 * opened; the page's system socket on the same connection (presence, announcements) is `bench:realtime`'s subject.
 * Nest's own per-connection wrapping (its Rx streams) is left out.
 *
 * Baseline, same run, same clients, counts and pairs: bare Socket.IO in a process of its own, `sendChatMessage`
 * received from A and emitted at once to B's socket as `chatMessage` (same payload), nothing in between.
 *
 * The clients run in child processes (bench/sockets-clients.ts; two past 9,000 sockets, for the open-file limit): on
 * 2 cores, the backend's figures must not include 20,000 clients' work. All read the same clock
 * (`performance.timeOrigin + now()`). Throughput: the send schedule is fixed, so both deliver the same lines a second
 * while neither is saturated; `ratioToBare` compares what that costs the serving process: lines relayed per
 * CPU-second, product over bare (see `capacityRatio`).
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { Session } from 'node:inspector/promises';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pino } from 'pino';
import type { MessageBus } from '@serendip/backend/platform/messaging/message-bus.js';
import type { Server as IoServer, ServerOptions, Socket } from '../backend/node_modules/socket.io/dist/index.js';
import { IpcChild, memory } from './child-process.js';
import { percentile, report } from './harness.js';
import { coresBusy, readCpuTimes } from './machine-cpu.js';
import type { ClientCommand, ClientReport } from './sockets-clients.js';
import { capacityRatio, GOAL, rampCounts, stepFailure } from './sockets-ramp.js';

const json = process.argv.includes('--json');
/** `BENCH_SOCKETS_PROFILE=<dir>`: a CPU profile of the serving process over each product step's window, for DevTools. */
const PROFILE_DIR = process.env.BENCH_SOCKETS_PROFILE;
const quick = process.argv.includes('--quick');
const MAX_SOCKETS = Number(process.env.BENCH_SOCKETS ?? (quick ? 1_000 : GOAL.sockets));
const PERIOD_MS = 3_000;
const WARMUP_MS = quick ? 1_500 : 3_000;
const WINDOW_MS = quick ? 6_000 : 12_000;
const GRACE_MS = 5_000;
/** The whole run stays under 10 minutes: no step of a ramp starts after its deadline (from the start). */
const PRODUCT_DEADLINE_MS = (quick ? 2 : 5) * 60_000;
const BARE_DEADLINE_MS = (quick ? 3 : 8) * 60_000;
/** What one step takes at most (opening its sockets aside), to keep the run within its time. */
const STEP_ESTIMATE_MS = WARMUP_MS + WINDOW_MS + GRACE_MS + 10_000;
/**
 * A step that misses the goal while other work (other processes, and the host's steal from this VM's cores) takes this
 * many cores is measured once more.
 */
const RETRY_ABOVE_OTHER_CORES = 0.3;
const NAMESPACE = '/video';
/** Client sockets come from several loopback addresses: 20k connections never run short of ephemeral ports. */
const LOCAL_ADDRESSES = ['127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.5'];
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const started = performance.now();
const logger = pino({ level: 'error' }, pino.destination(2));
// Socket.IO is the backend's dependency (the bench has none of its own): taken from there.
const { Server } = createRequire(new URL('../../backend/package.json', import.meta.url))('socket.io') as {
  Server: new (port: number, options: Partial<ServerOptions>) => IoServer;
};

const say = (line: string) => process.stderr.write(`${line}\n`);
const round1 = (x: number) => Math.round(x * 10) / 10;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** What a partner is shown of the other (spec 3), the same for everyone here. */
const PUBLIC_PROFILE = {
  firstName: 'Alex',
  userAge: 29,
  gender: 'female',
  country: 'DE',
  avatar: null,
  isAdmin: false,
  deviceType: 'desktop',
} as const;

/** One side of a pair: the `matchFound` its socket is told, as the matchmaker builds it. */
interface Pairing {
  userId: string;
  partnerUserId: string;
  match: {
    matchId: string;
    partnerId: string;
    partnerUser: typeof PUBLIC_PROFILE & { _id: string; socketId: string };
    role: 'offerer' | 'answerer';
    iceServers: [];
    media: 'p2p';
    relayFallback: boolean;
    sharedInterests: string[];
  };
}

/** Users 2j and 2j + 1 are partners; each side knows the other only by a per-match id. */
function pairings(userIds: string[]): Pairing[] {
  const out: Pairing[] = [];
  for (let j = 0; j + 1 < userIds.length; j += 2) {
    const [a, b] = [userIds[j]!, userIds[j + 1]!];
    const matchId = randomUUID();
    const side = (userId: string, partnerUserId: string, role: 'offerer' | 'answerer'): Pairing => {
      const alias = randomUUID();
      return {
        userId,
        partnerUserId,
        match: {
          matchId,
          partnerId: alias,
          partnerUser: { ...PUBLIC_PROFILE, _id: alias, socketId: alias },
          role,
          iceServers: [],
          media: 'p2p',
          relayFallback: false,
          sharedInterests: [],
        },
      };
    };
    out.push(side(a, b, 'offerer'), side(b, a, 'answerer'));
  }
  return out;
}

interface Sample {
  /** The process's CPU so far (user + system), µs. */
  cpuMicros: number;
  /** Event-loop delay since the last sample. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** A server under test, wherever it runs. */
interface Target {
  name: string;
  url: string;
  /** Resolves once `count` sockets are attached (answers false after the timeout). */
  ready(count: number, timeoutMs: number): Promise<boolean>;
  pair(pairings: Pairing[]): Promise<void>;
  memory(): Promise<{ rss: number; heapUsed: number }>;
  sample(): Promise<Sample>;
  close(): Promise<void>;
}

/**
 * The process's CPU so far, and how late a 10 ms timer ran since the last sample (the event loop's delay). A loop that
 * never reaches its timers (an overloaded poll phase) shows as one long delay, counted up to the sample.
 */
function sampler() {
  const every = 10;
  const delays: number[] = [];
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    delays.push(now - last - every);
    last = now;
  }, every).unref();
  return (): Sample => {
    const cpu = process.cpuUsage();
    const sorted = Float64Array.from([...delays, performance.now() - last - every].map((d) => Math.max(0, d))).sort();
    delays.length = 0;
    return {
      cpuMicros: cpu.user + cpu.system,
      loopDelayP99Ms: round1(percentile(sorted, 99)),
      loopDelayMaxMs: round1(sorted[sorted.length - 1]!),
    };
  };
}

async function listening(io: IoServer): Promise<number> {
  return new Promise<number>((resolve) => {
    const address = io.httpServer.address();
    if (address && typeof address === 'object') resolve(address.port);
    else io.httpServer.once('listening', () => resolve((io.httpServer.address() as { port: number }).port));
  });
}

async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (!condition()) {
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

/** The product's video gateway in this process (see the header for what is and is not included). */
async function productServer(bus: MessageBus): Promise<Target & { base: { rss: number; heapUsed: number } }> {
  const { Logger } = await import('@nestjs/common');
  const { VideoGateway } = await import('@serendip/backend/matching/gateway/video.gateway.js');
  const { videoSubject } = await import('@serendip/backend/matching/gateway/video-subject.js');
  const { Realtime } = await import('@serendip/backend/platform/realtime/realtime.js');
  const { isAllowedOrigin } = await import('@serendip/backend/platform/realtime/socket-adapter.js');
  // The gateway's own log lines go to stderr: stdout carries the result.
  Logger.overrideLogger({
    log: () => undefined,
    warn: (message: unknown) => say(`gateway warn: ${String(message)}`),
    error: (message: unknown) => say(`gateway error: ${String(message)}`),
  });
  const core = { bus } as never;
  // Video sockets take no system pushes, so Realtime never asks presence anything for them.
  const presence = {
    join: () => {
      throw new Error('a video socket has no presence');
    },
  };
  const realtime = new Realtime(core, presence as never);
  // The test-only sign-in: the handshake's `auth.userId` is the session, its user a finished adult profile.
  const sessions = {
    resolve: async (handshake: { auth?: { userId?: unknown } }) => {
      const userId = handshake.auth?.userId;
      return typeof userId === 'string' ? { userId, sessionId: `bench-${userId}`, signedInWithCode: false } : undefined;
    },
    isActive: async () => true,
  };
  const users = {
    userInfo: async (userId: string) => ({
      _id: userId,
      emailAddress: `${userId}@example.com`,
      emailVerified: true,
      firstName: PUBLIC_PROFILE.firstName,
      lastName: null,
      username: null,
      gender: PUBLIC_PROFILE.gender,
      userBirthDate: '1996-04-01',
      userAge: PUBLIC_PROFILE.userAge,
      phoneNumber: null,
      bio: null,
      avatar: null,
      country: PUBLIC_PROFILE.country,
      city: null,
      isAdmin: false,
      role: 'user',
      isBanned: false,
      twoFactorEnabled: false,
      hideIp: false,
      isFinishedSteps: true,
      isFirstSteps: false,
    }),
  };
  const gateway = new VideoGateway(core, sessions as never, users as never, realtime, {} as never, {} as never);
  const publicUrl = 'http://127.0.0.1';
  const base = memory();
  const io = new Server(0, {
    transports: ['websocket'],
    allowRequest: (req: IncomingMessage, callback: (err: string | null, ok: boolean) => void) =>
      callback(null, isAllowedOrigin(req, publicUrl)),
  });
  const port = await listening(io);
  const namespace = io.of(NAMESPACE);
  gateway.afterInit(namespace as never);
  gateway.onApplicationBootstrap();
  const socketIdOf = new Map<string, string>();
  let attached = 0;
  namespace.on('connection', (socket: Socket) => {
    const userId = (socket.data as { userId: string }).userId;
    socketIdOf.set(userId, socket.id);
    void gateway.handleConnection(socket as never).then(() => attached++);
    socket.on('disconnect', () => {
      attached--;
      socketIdOf.delete(userId);
      void gateway.handleDisconnect(socket as never);
    });
  });
  const sample = sampler();
  return {
    name: 'product',
    url: `http://127.0.0.1:${port}${NAMESPACE}`,
    base,
    ready: (count, timeoutMs) => until(() => attached >= count, timeoutMs),
    pair: async (sides) => {
      // As the matchmaker tells each side: a `match` delivery on its video subject.
      for (let i = 0; i < sides.length; i += 1_000) {
        await Promise.all(
          sides.slice(i, i + 1_000).map(({ userId, partnerUserId, match }) =>
            bus.publish({
              subject: videoSubject(userId),
              id: randomUUID(),
              data: {
                kind: 'match',
                socketId: socketIdOf.get(userId) ?? 'gone',
                event: 'matchFound',
                match,
                partnerUserId,
              },
            }),
          ),
        );
      }
    },
    memory: async () => memory(),
    sample: async () => sample(),
    close: async () => {
      await until(() => attached <= 0, 30_000);
      await gateway.onApplicationShutdown();
      await realtime.onApplicationShutdown();
      await new Promise<void>((resolve) => io.close(() => resolve()));
    },
  };
}

type BareCommand =
  | { type: 'start' }
  | { type: 'count' }
  | { type: 'pair'; pairings: Pairing[] }
  | { type: 'memory' }
  | { type: 'sample' }
  | { type: 'close' };

type BareReport =
  | { type: 'started'; port: number; base: { rss: number; heapUsed: number } }
  | { type: 'count'; count: number }
  | { type: 'paired' }
  | { type: 'memory'; rss: number; heapUsed: number }
  | { type: 'sample'; sample: Sample }
  | { type: 'closed' }
  | { type: 'failed'; message: string };

/** The baseline, run as a child process (`--bare-server`): bare Socket.IO relaying between partners. */
function bareServerProcess() {
  const sample = sampler();
  let io: IoServer | undefined;
  const sockets = new Map<string, Socket>();
  const partners = new Map<string, { userId: string; alias: string }>();
  const send = (r: BareReport) => process.send?.(r);
  process.on('message', (command: BareCommand) => {
    void (async () => {
      try {
        if (command.type === 'start') {
          const base = memory();
          io = new Server(0, { transports: ['websocket'] });
          const port = await listening(io);
          io.of(NAMESPACE).on('connection', (socket) => {
            const userId = String((socket.handshake.auth as { userId?: unknown }).userId);
            sockets.set(userId, socket);
            socket.on('sendChatMessage', (line: { message?: unknown; id?: unknown }) => {
              const partner = partners.get(userId);
              const to = partner && sockets.get(partner.userId);
              // As the partner knows the sender: the alias it was given.
              const from = partner && partners.get(partner.userId)?.alias;
              to?.emit('chatMessage', { message: line.message, sentAt: new Date().toISOString(), id: line.id, from });
            });
            socket.on('disconnect', () => sockets.delete(userId));
          });
          send({ type: 'started', port, base });
        } else if (command.type === 'count') send({ type: 'count', count: sockets.size });
        else if (command.type === 'pair') {
          for (const { userId, partnerUserId, match } of command.pairings) {
            partners.set(userId, { userId: partnerUserId, alias: match.partnerId });
            sockets.get(userId)?.emit('matchFound', match);
          }
          send({ type: 'paired' });
        } else if (command.type === 'memory') send({ type: 'memory', ...memory() });
        else if (command.type === 'sample') send({ type: 'sample', sample: sample() });
        else {
          await new Promise<void>((resolve) => (io ? io.close(() => resolve()) : resolve()));
          send({ type: 'closed' });
        }
      } catch (error) {
        send({ type: 'failed', message: (error as Error).message });
      }
    })();
  });
}

async function bareServer(): Promise<Target & { base: { rss: number; heapUsed: number }; kill(): void }> {
  const child = new IpcChild<BareCommand, BareReport>(new URL(import.meta.url), { args: ['--bare-server'] });
  const { port, base } = await child.ask({ type: 'start' }, 'started');
  return {
    name: 'bare',
    url: `http://127.0.0.1:${port}${NAMESPACE}`,
    base,
    ready: async (count, timeoutMs) => {
      const deadline = performance.now() + timeoutMs;
      while ((await child.ask({ type: 'count' }, 'count')).count < count) {
        if (performance.now() > deadline) return false;
        await new Promise((r) => setTimeout(r, 100));
      }
      return true;
    },
    pair: async (sides) => {
      await child.ask({ type: 'pair', pairings: sides }, 'paired');
    },
    memory: async () => {
      const { rss, heapUsed } = await child.ask({ type: 'memory' }, 'memory');
      return { rss, heapUsed };
    },
    sample: async () => (await child.ask({ type: 'sample' }, 'sample')).sample,
    close: async () => {
      await child.ask({ type: 'close' }, 'closed');
      child.kill();
    },
    kill: () => child.kill(),
  };
}

/** Raises this process's open-file limit (children inherit it); answers the soft limit now in force. */
function raiseFileLimit(wanted: number): number {
  const current = () => {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    return Number(line?.split(/\s+/)[3] ?? 1024);
  };
  if (current() >= wanted) return current();
  try {
    // Root (or CAP_SYS_RESOURCE) may raise the hard limit too; otherwise this fails and the limit stays.
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${wanted}:${wanted}`], { stdio: 'ignore' });
  } catch {
    say(`could not raise the open-file limit to ${wanted} (raising the hard limit needs CAP_SYS_RESOURCE)`);
  }
  return current();
}

/** Ticks the host took from this VM's cores (steal), and all ticks, from /proc/stat. */
function readSteal(): { steal: number; total: number } | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!;
    const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
    return ticks.length === 8 ? { steal: ticks[7]!, total: ticks.reduce((a, b) => a + b, 0) } : undefined;
  } catch {
    return undefined;
  }
}

/** NATS's CPU share: the local nats-server's, when there is one (it serves anything else on this machine too). */
function natsServerTicks(): (() => number | undefined) | undefined {
  let pid: string | undefined;
  try {
    pid = readdirSync('/proc').find((p) => /^\d+$/.test(p) && readComm(p) === 'nats-server');
  } catch {
    return undefined;
  }
  if (!pid) return undefined;
  return () => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return Number(fields[11]) + Number(fields[12]); // utime + stime, clock ticks (100 a second)
    } catch {
      return undefined;
    }
  };
}

function readComm(pid: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}

interface StepFigures {
  sockets: number;
  connected: number;
  paired: number;
  connectMs: number;
  sent: number;
  delivered: number;
  lossPct: number;
  deliveredPerSec: number;
  relayP50Ms: number;
  relayP99Ms: number;
  relayMaxMs: number;
  /** The serving process's CPU over the window (cores), and per line relayed (µs). */
  serverCpuCores: number;
  cpuUsPerLine: number;
  cpuSeconds: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  bytesPerSocket: number;
  heapBytesPerSocket: number;
  clientCpuCores: number;
  clientLoopDelayP99Ms: number;
  clientSendLagMaxMs: number;
  natsCpuCores: number | null;
  /** Cores busy on the machine (steal included), the host's steal alone, and what neither this run nor NATS took. */
  machineCores: number | null;
  stealCores: number | null;
  otherCores: number | null;
  loadAverage: number;
  misrouted: number;
  refusals: Record<string, number>;
  failure?: string;
  attempts: number;
}

type Ran = Extract<ClientReport, { type: 'ran' }>;

/**
 * The clients, in one child process, or two past 9,000 sockets (a process may hold at most the open-file limit of
 * descriptors: 20,000 on this machine). Both sides of a pair are in the same process: they share its send schedule.
 */
class ClientPool {
  private readonly children: IpcChild<ClientCommand, ClientReport>[];

  constructor(processes: number) {
    this.children = Array.from(
      { length: processes },
      () =>
        new IpcChild<ClientCommand, ClientReport>(new URL('./sockets-clients.js', import.meta.url), {
          execArgv: [...process.execArgv, '--max-old-space-size=4096'],
        }),
    );
  }

  /** Opens the sockets of these sides (whole pairs), pair j in process j mod the count. */
  async connect(url: string, sides: Pairing[]) {
    const userIds = this.children.map(() => [] as string[]);
    sides.forEach((side, i) => userIds[Math.floor(i / 2) % this.children.length]!.push(side.userId));
    const answers = await Promise.all(
      this.children.map((child, i) =>
        child.ask({ type: 'connect', url, userIds: userIds[i]!, localAddresses: LOCAL_ADDRESSES }, 'connected'),
      ),
    );
    return {
      count: sum(answers.map((a) => a.count)),
      failed: sum(answers.map((a) => a.failed)),
      firstError: answers.find((a) => a.firstError)?.firstError,
    };
  }

  async awaitPairs(timeoutMs: number) {
    const answers = await Promise.all(this.children.map((c) => c.ask({ type: 'await-pairs', timeoutMs }, 'paired')));
    return { paired: sum(answers.map((a) => a.paired)) };
  }

  /** Every process runs the schedule from the same command: their windows open and close together. */
  run(command: Extract<ClientCommand, { type: 'run' }>) {
    const opened = Promise.all(this.children.map((c) => c.next('window-open')));
    const closed = Promise.all(this.children.map((c) => c.next('window-closed')));
    const ran = Promise.all(this.children.map((c) => c.ask(command, 'ran'))).then((all): Omit<Ran, 'type'> => ({
      sent: sum(all.map((r) => r.sent)),
      delivered: sum(all.map((r) => r.delivered)),
      latenciesMs: all.flatMap((r) => r.latenciesMs),
      misrouted: sum(all.map((r) => r.misrouted)),
      refusals: Object.fromEntries(
        [...new Set(all.flatMap((r) => Object.keys(r.refusals)))].map((code) => [
          code,
          sum(all.map((r) => r.refusals[code] ?? 0)),
        ]),
      ),
      sendLagMaxMs: Math.max(...all.map((r) => r.sendLagMaxMs)),
      loopDelayP99Ms: Math.max(...all.map((r) => r.loopDelayP99Ms)),
      cpuCores: round2(sum(all.map((r) => r.cpuCores))),
    }));
    return { opened, closed, ran };
  }

  async close() {
    await Promise.all(this.children.map((c) => c.ask({ type: 'close' }, 'closed')));
  }

  kill() {
    for (const child of this.children) child.kill();
  }
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const isCount = (n: number | undefined): n is number => n !== undefined;

type Measured = Omit<
  StepFigures,
  'sockets' | 'connected' | 'paired' | 'connectMs' | 'bytesPerSocket' | 'heapBytesPerSocket' | 'attempts'
>;

/** Starts profiling this process's CPU; the function it gives back stops and writes the profile there. */
async function startProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

async function measureStep(
  target: Target,
  count: number,
  clients: ClientPool,
  natsTicks: (() => number | undefined) | undefined,
): Promise<Measured> {
  const { opened, closed, ran } = clients.run({
    type: 'run',
    periodMs: PERIOD_MS,
    warmupMs: WARMUP_MS,
    windowMs: WINDOW_MS,
    graceMs: GRACE_MS,
  });
  await opened;
  const profile = target.name === 'product' && PROFILE_DIR ? await startProfile() : undefined;
  const reading = async () => ({
    server: await target.sample(),
    machine: readCpuTimes(),
    steal: readSteal(),
    nats: natsTicks?.(),
    at: performance.now(),
  });
  const from = await reading();
  await closed;
  const to = await reading();
  await profile?.(path.join(PROFILE_DIR!, `product-${count}.cpuprofile`));
  const result = await ran;
  const seconds = (to.at - from.at) / 1000;
  const cpuSeconds = (to.server.cpuMicros - from.server.cpuMicros) / 1e6;
  const natsCpuCores =
    from.nats === undefined || to.nats === undefined ? null : round2((to.nats - from.nats) / 100 / seconds);
  const machineCores = coresBusy(from.machine, to.machine, 2);
  const serverCpuCores = round2(cpuSeconds / seconds);
  const latencies = Float64Array.from(result.latenciesMs).sort();
  const at = (p: number) => (latencies.length ? round1(percentile(latencies, p)) : NaN);
  return {
    sent: result.sent,
    delivered: result.delivered,
    lossPct: result.sent ? round2((100 * (result.sent - result.delivered)) / result.sent) : 0,
    deliveredPerSec: Math.round(result.delivered / (WINDOW_MS / 1000)),
    relayP50Ms: at(50),
    relayP99Ms: at(99),
    relayMaxMs: at(100),
    serverCpuCores,
    cpuSeconds,
    cpuUsPerLine: result.delivered ? round1((cpuSeconds * 1e6) / result.delivered) : NaN,
    loopDelayP99Ms: to.server.loopDelayP99Ms,
    loopDelayMaxMs: to.server.loopDelayMaxMs,
    clientCpuCores: result.cpuCores,
    clientLoopDelayP99Ms: result.loopDelayP99Ms,
    clientSendLagMaxMs: result.sendLagMaxMs,
    natsCpuCores,
    machineCores,
    stealCores:
      from.steal && to.steal && to.steal.total > from.steal.total
        ? round2(((to.steal.steal - from.steal.steal) / (to.steal.total - from.steal.total)) * 2)
        : null,
    otherCores:
      machineCores === null
        ? null
        : round2(Math.max(0, machineCores - serverCpuCores - result.cpuCores - (natsCpuCores ?? 0))),
    loadAverage: round2(loadavg()[0]!),
    misrouted: result.misrouted,
    refusals: result.refusals,
  };
}

/**
 * Ramps `target` through `counts`, adding sockets at each step, and stops at the first failed step from
 * `stopOnFailureFrom` sockets on. The product's ramp stops at its first failed step. The baseline's goes on past the
 * product's last step to its own limit while time allows, measuring every count on the way except that it keeps time
 * for the `essential` ones (where the product stopped and the count it reports): a count it skips only has its sockets
 * opened, on the way to the next.
 */
async function ramp(
  target: Target & { base: { rss: number; heapUsed: number } },
  clients: ClientPool,
  counts: number[],
  sides: Pairing[],
  deadlineMs: number,
  natsTicks: (() => number | undefined) | undefined,
  options: { stopOnFailureFrom: number; essential?: Set<number> },
): Promise<{ steps: StepFigures[]; stoppedBy?: string; skipped: number[] }> {
  const steps: StepFigures[] = [];
  const skipped: number[] = [];
  let open = 0;
  for (const [i, count] of counts.entries()) {
    const elapsed = performance.now() - started;
    const essential = options.essential?.has(count) ?? true;
    const essentialLeft = counts.slice(i + 1).filter((c) => options.essential?.has(c) ?? true).length;
    if (!essential && elapsed + (essentialLeft + 1) * STEP_ESTIMATE_MS > deadlineMs) {
      skipped.push(count);
      if (essentialLeft === 0) break;
    } else if (elapsed > deadlineMs) return { steps, stoppedBy: 'time', skipped };
    const fresh = sides.slice(open, count);
    const connectFrom = performance.now();
    const connected = await clients.connect(target.url, fresh);
    open = count;
    if (connected.failed) say(`${target.name}: ${connected.failed} sockets did not open (${connected.firstError})`);
    if (connected.count < count) {
      say(`${target.name} ${count} sockets: only ${connected.count} open -- missed: connect`);
      return { steps, stoppedBy: 'connect', skipped };
    }
    const attached = await target.ready(connected.count, 120_000);
    const connectMs = Math.round(performance.now() - connectFrom);
    say(`${target.name} ${count} sockets: open in ${connectMs} ms${attached ? '' : ', not all attached'}; pairing`);
    await target.pair(fresh);
    const paired = await clients.awaitPairs(30_000);
    if (paired.paired < count) say(`${target.name} ${count} sockets: only ${paired.paired} paired`);
    if (skipped.at(-1) === count) {
      say(`${target.name} ${count} sockets: not measured (time), on to the next`);
      continue;
    }
    // Subscriptions and buffers settle before the reading.
    await new Promise((r) => setTimeout(r, 1_000));
    const mem = await target.memory();
    let figures: StepFigures | undefined;
    for (let attempt = 1; attempt <= 2; attempt++) {
      const measured = await measureStep(target, count, clients, natsTicks);
      const step: StepFigures = {
        sockets: count,
        connected: connected.count,
        paired: paired.paired,
        connectMs,
        ...measured,
        bytesPerSocket: Math.round((mem.rss - target.base.rss) / count),
        heapBytesPerSocket: Math.round((mem.heapUsed - target.base.heapUsed) / count),
        attempts: attempt,
      };
      // Sockets the server never finished attaching count as not open.
      const failure = attached ? stepFailure(step) : 'connect';
      if (failure) step.failure = failure;
      figures = step;
      say(
        [
          `${target.name} ${count} sockets (${connectMs} ms to open): relay p50 ${step.relayP50Ms}`,
          `/ p99 ${step.relayP99Ms} / max ${step.relayMaxMs} ms, ${step.delivered}/${step.sent} delivered`,
          `(${step.deliveredPerSec}/s); server ${step.serverCpuCores} cores (${step.cpuUsPerLine} µs a line),`,
          `loop delay p99 ${step.loopDelayP99Ms} ms; ${step.bytesPerSocket} B RSS, ${step.heapBytesPerSocket} B heap`,
          `a socket; clients ${step.clientCpuCores} cores (loop p99 ${step.clientLoopDelayP99Ms} ms),`,
          `NATS ${step.natsCpuCores}, others ${step.otherCores} cores (steal ${step.stealCores}),`,
          `load ${step.loadAverage}${failure ? ` -- missed: ${failure}` : ''}`,
        ].join(' '),
      );
      const contended = (step.otherCores ?? 0) > RETRY_ABOVE_OTHER_CORES;
      if (failure !== 'p99' || !contended || performance.now() - started > deadlineMs) break;
      say(`${target.name} ${count}: other work and steal took ${step.otherCores} cores; measured once more`);
    }
    steps.push(figures!);
    if (figures!.failure && count >= options.stopOnFailureFrom) return { steps, stoppedBy: figures!.failure, skipped };
  }
  return { steps, skipped };
}

async function main() {
  // Each connection is a descriptor in the serving process (and one in a client process): the open-file limit caps
  // the count one process can hold. Where it cannot be raised, the ramp stops short of it (NATS, pipes, stdio...).
  const fileLimit = raiseFileLimit(Math.max(65_536, MAX_SOCKETS + 10_000));
  const fileCap = Math.floor((fileLimit - 100) / 100) * 100;
  if (fileCap < MAX_SOCKETS) say(`open-file limit ${fileLimit} (hard): one process holds ${fileCap} sockets at most`);
  const counts = rampCounts(Math.min(MAX_SOCKETS, fileCap));
  const top = counts.at(-1)!;
  const sides = pairings(Array.from({ length: top }, () => randomUUID()));
  const { createMessageBus } = await import('@serendip/backend/platform/messaging/create-message-bus.js');
  const bus = createMessageBus({ ...(NATS_URL ? { natsUrl: NATS_URL } : {}), logger });
  const natsTicks = NATS_URL ? natsServerTicks() : undefined;
  const clients = new ClientPool(top > 9_000 ? 2 : 1);
  say(`bench:sockets: ${counts.join(', ')} sockets, a line every ${PERIOD_MS} ms each, ${WINDOW_MS} ms windows`);
  let bare: Awaited<ReturnType<typeof bareServer>> | undefined;
  try {
    const product = await productServer(bus);
    const ours = await ramp(product, clients, counts, sides, PRODUCT_DEADLINE_MS, natsTicks, { stopOnFailureFrom: 0 });
    await clients.close();
    await product.close();

    bare = await bareServer();
    const reported = ours.steps.filter((s) => !s.failure).at(-1)?.sockets;
    const essential = new Set([reported ?? ours.steps[0]?.sockets, ours.steps.at(-1)?.sockets].filter(isCount));
    const options = { stopOnFailureFrom: ours.steps.at(-1)?.sockets ?? 0, essential };
    const theirs = await ramp(bare, clients, counts, sides, BARE_DEADLINE_MS, natsTicks, options);
    await clients.close();
    await bare.close();
    bare = undefined;

    const passed = ours.steps.filter((s) => !s.failure);
    const best = passed.at(-1);
    const shown = best ?? ours.steps[0];
    const bareAt = (count: number | undefined) => theirs.steps.find((s) => s.sockets === count);
    const bareShown = bareAt(shown?.sockets);
    const ratio = shown && bareShown ? capacityRatio(shown, bareShown) : null;
    const ratioToBare = ratio === null ? null : round2(ratio);
    const stoppedBy =
      ours.stoppedBy ?? (top < MAX_SOCKETS ? `open-file limit (${fileLimit})` : best ? 'top of the ramp' : undefined);
    const metGoal =
      !!best && best.sockets >= GOAL.sockets && best.relayP99Ms < GOAL.relayP99Ms && (ratio ?? 0) >= GOAL.ratioToBare;
    const slim = (s: StepFigures | undefined) => {
      if (!s) return null;
      const { cpuSeconds: _cpu, ...rest } = s;
      return rest;
    };
    say(
      `${best ? `${best.sockets} sockets met the goal` : 'no step met the goal'}; stopped by ${stoppedBy ?? '?'}; ` +
        `ratio to bare (lines a CPU-second) ${ratioToBare}`,
    );
    if (!json) say('');
    report({
      sockets: best?.sockets ?? 0,
      relayP99Ms: shown?.relayP99Ms ?? null,
      relayP50Ms: shown?.relayP50Ms ?? null,
      bytesPerSocket: shown?.bytesPerSocket ?? null,
      heapBytesPerSocket: shown?.heapBytesPerSocket ?? null,
      ratioToBare,
      ratioDefinition: 'lines relayed per CPU-second of the serving process, product / bare, at the reported count',
      deliveredRatioToBare: shown && bareShown?.delivered ? round2(shown.delivered / bareShown.delivered) : null,
      p99RatioToBare: shown && bareShown ? round2(bareShown.relayP99Ms / shown.relayP99Ms) : null,
      metGoal,
      goal: GOAL,
      stoppedBy: stoppedBy ?? null,
      bare: bareShown
        ? {
            sockets: bareShown.sockets,
            relayP99Ms: bareShown.relayP99Ms,
            relayP50Ms: bareShown.relayP50Ms,
            bytesPerSocket: bareShown.bytesPerSocket,
            heapBytesPerSocket: bareShown.heapBytesPerSocket,
            cpuUsPerLine: bareShown.cpuUsPerLine,
          }
        : null,
      // The baseline's own limit on this machine, its ramp going on past the product's last step.
      bareSockets: theirs.steps.filter((s) => !s.failure).at(-1)?.sockets ?? 0,
      bareStoppedBy: theirs.stoppedBy ?? (theirs.skipped.length ? 'time' : 'top of the ramp'),
      steps: counts
        .filter((c) => ours.steps.some((s) => s.sockets === c) || bareAt(c))
        .map((c) => ({ sockets: c, product: slim(ours.steps.find((s) => s.sockets === c)), bare: slim(bareAt(c)) })),
      setup: {
        bus: NATS_URL ? 'nats' : 'in-process',
        periodMs: PERIOD_MS,
        warmupMs: WARMUP_MS,
        windowMs: WINDOW_MS,
        graceMs: GRACE_MS,
        fileLimit,
        clientProcesses: top > 9_000 ? 2 : 1,
        bareNotMeasuredAt: theirs.skipped,
        elapsedS: Math.round((performance.now() - started) / 1000),
      },
    });
  } finally {
    bare?.kill();
    clients.kill();
    await bus.close();
  }
}

if (process.argv.includes('--bare-server')) bareServerProcess();
else await main();
