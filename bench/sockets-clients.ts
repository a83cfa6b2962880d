/**
 * The client side of `bench:sockets`, in a process of its own (the backend's process must not pay for its clients):
 * socket.io-client sockets on the video namespace, WebSocket only, as the page opens them. Each learns its partner from
 * `matchFound`, then sends `sendChatMessage` as the page does (no ack) on a schedule that spreads every socket's sends
 * evenly over the period (`sockets-ramp.ts`); the partner's socket times each `chatMessage` against the send time its
 * id carries. Driven by its parent over IPC.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import { dueAt, dueBy, lineId, parseLineId, windowSends } from './sockets-ramp.js';

export type ClientCommand =
  | { type: 'connect'; url: string; userIds: string[]; localAddresses: string[] }
  | { type: 'await-pairs'; timeoutMs: number }
  | { type: 'run'; periodMs: number; warmupMs: number; windowMs: number; graceMs: number }
  | { type: 'close' };

export type ClientReport =
  | { type: 'connected'; count: number; failed: number; ms: number; firstError?: string }
  | { type: 'paired'; paired: number; count: number; ms: number }
  | { type: 'window-open' }
  | { type: 'window-closed' }
  | {
      type: 'ran';
      sent: number;
      delivered: number;
      latenciesMs: number[];
      /** A line that reached a socket from anyone but its partner (must be 0). */
      misrouted: number;
      /** videoError events (refusals: rate-limited, not in a call...) during the run. */
      refusals: Record<string, number>;
      /** The latest any window send left against its due time. */
      sendLagMaxMs: number;
      loopDelayP99Ms: number;
      /** This process's CPU over the window, in cores. */
      cpuCores: number;
    }
  | { type: 'closed' }
  | { type: 'failed'; message: string };

/** Sockets opening at once: beyond this, the two cores only queue handshakes. */
const OPENING_AT_ONCE = 250;
/** A chat line of ordinary length. */
const LINE = 'Hi! Where are you calling from? It is raining here all day';

interface Member {
  socket: Socket;
  /** The partner's per-match id, from matchFound. */
  target?: string;
}

interface Measuring {
  first: number;
  end: number;
  delivered: number;
  latenciesMs: number[];
  misrouted: number;
  refusals: Record<string, number>;
  onDone?: () => void;
}

const members: Member[] = [];
let measuring: Measuring | undefined;
let onPaired: (() => void) | undefined;
let pairedCount = 0;

const send = (report: ClientReport) => process.send?.(report);
const now = () => performance.timeOrigin + performance.now();

function open(url: string, userId: string, localAddress: string | undefined): Promise<Member> {
  const socket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 60_000,
    // The test-only sign-in: the handshake names its user (see sockets.bench.ts).
    auth: { userId },
    ...(localAddress ? { localAddress } : {}),
  });
  const member: Member = { socket };
  socket.on('matchFound', (match: { partnerId?: string }) => {
    if (!member.target && match.partnerId) pairedCount++;
    member.target = match.partnerId;
    if (onPaired && pairedCount >= members.length) onPaired();
  });
  socket.on('chatMessage', (line: { id?: unknown; from?: unknown }) => {
    const at = now();
    const w = measuring;
    const parsed = parseLineId(line.id);
    if (!w || !parsed || parsed.k < w.first || parsed.k >= w.end) return;
    if (line.from !== member.target) w.misrouted++;
    w.delivered++;
    w.latenciesMs.push(at - parsed.sentAtMs);
    if (w.delivered >= w.end - w.first) w.onDone?.();
  });
  socket.on('videoError', (error: { code?: string }) => {
    if (measuring) measuring.refusals[error.code ?? '?'] = (measuring.refusals[error.code ?? '?'] ?? 0) + 1;
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(member));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

async function connect(url: string, userIds: string[], localAddresses: string[]) {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  let firstError: string | undefined;
  const opener = async () => {
    while (next < userIds.length) {
      const i = next++;
      const address = localAddresses.length ? localAddresses[(members.length + i) % localAddresses.length] : undefined;
      try {
        members.push(await open(url, userIds[i]!, address));
      } catch (error) {
        failed++;
        firstError ??= (error as Error).message;
      }
    }
  };
  await Promise.all(Array.from({ length: OPENING_AT_ONCE }, opener));
  send({
    type: 'connected',
    count: members.length,
    failed,
    ms: Math.round(performance.now() - started),
    ...(firstError ? { firstError } : {}),
  });
}

function awaitPairs(timeoutMs: number) {
  const started = performance.now();
  const done = () => {
    onPaired = undefined;
    clearTimeout(timer);
    send({ type: 'paired', paired: pairedCount, count: members.length, ms: Math.round(performance.now() - started) });
  };
  const timer = setTimeout(done, timeoutMs);
  onPaired = done;
  if (pairedCount >= members.length) done();
}

/**
 * Sends on the schedule from now for warm-up + window; the sends due in the window are measured. Reports once every
 * measured line has arrived, or the grace period after the last send is over.
 */
function run({ periodMs, warmupMs, windowMs, graceMs }: Extract<ClientCommand, { type: 'run' }>) {
  const n = members.length;
  if (n === 0) {
    send({ type: 'window-open' });
    send({ type: 'window-closed' });
    const none = { sent: 0, delivered: 0, latenciesMs: [], misrouted: 0, refusals: {}, sendLagMaxMs: 0 };
    return send({ type: 'ran', ...none, loopDelayP99Ms: 0, cpuCores: 0 });
  }
  const { first, end } = windowSends(warmupMs, warmupMs + windowMs, n, periodMs);
  const w: Measuring = { first, end, delivered: 0, latenciesMs: [], misrouted: 0, refusals: {} };
  measuring = w;
  const loop = monitorEventLoopDelay({ resolution: 5 });
  let cpuFrom = process.cpuUsage();
  let cpuAt = performance.now();
  let cpuCores = 0;
  let sendLagMaxMs = 0;
  let k = 0;
  const started = performance.now();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(grace);
    loop.disable();
    measuring = undefined;
    send({
      type: 'ran',
      sent: end - first,
      delivered: w.delivered,
      latenciesMs: w.latenciesMs,
      misrouted: w.misrouted,
      refusals: w.refusals,
      sendLagMaxMs: Math.round(sendLagMaxMs * 10) / 10,
      loopDelayP99Ms: Math.round(loop.percentile(99) / 1e4) / 100,
      cpuCores,
    });
  };
  let grace: NodeJS.Timeout | undefined;
  const tick = setInterval(() => {
    const elapsed = performance.now() - started;
    const due = Math.min(dueBy(elapsed, n, periodMs), end);
    if (k <= first && due > first) {
      send({ type: 'window-open' });
      loop.enable();
      cpuFrom = process.cpuUsage();
      cpuAt = performance.now();
    }
    // The worst lateness: this tick's first send, against its due time.
    if (k < due && k >= first) sendLagMaxMs = Math.max(sendLagMaxMs, elapsed - dueAt(k, n, periodMs));
    for (; k < due; k++) {
      const member = members[k % n]!;
      if (!member.target) continue;
      member.socket.emit('sendChatMessage', { target: member.target, message: LINE, id: lineId(k, now()) });
    }
    if (k < end) return;
    clearInterval(tick);
    const cpu = process.cpuUsage(cpuFrom);
    cpuCores = Math.round(((cpu.user + cpu.system) / 1000 / (performance.now() - cpuAt)) * 100) / 100;
    send({ type: 'window-closed' });
    w.onDone = finish;
    grace = setTimeout(finish, graceMs);
    if (w.delivered >= end - first) finish();
  }, 2);
}

process.on('message', (command: ClientCommand) => {
  void (async () => {
    try {
      if (command.type === 'connect') await connect(command.url, command.userIds, command.localAddresses);
      else if (command.type === 'await-pairs') awaitPairs(command.timeoutMs);
      else if (command.type === 'run') run(command);
      else {
        for (const { socket } of members) socket.close();
        members.length = 0;
        pairedCount = 0;
        send({ type: 'closed' });
      }
    } catch (error) {
      send({ type: 'failed', message: (error as Error).message });
    }
  })();
});
