/**
 * The client side of `bench:realtime`, in a process of its own (the backend's process must not pay for its clients):
 * opens socket.io-client sockets as the page opens the system socket (WebSocket only), and times each announcement's
 * arrival against the send time it carries. Driven by its parent over IPC.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';

export type ClientCommand =
  | { type: 'connect'; url: string; userIds: string[] }
  | { type: 'expect'; round: number; timeoutMs: number }
  | { type: 'close' };

export type ClientReport =
  | { type: 'connected'; count: number; ms: number }
  | { type: 'listening'; round: number }
  | { type: 'round'; round: number; latenciesMs: number[]; expected: number }
  | { type: 'closed' }
  | { type: 'failed'; message: string };

/** Sockets opening at once: beyond this, the two cores only queue handshakes. */
const OPENING_AT_ONCE = 250;

interface Announcement {
  details?: { sentAt?: number; round?: number };
}

let sockets: Socket[] = [];
let onArrival: ((announcement: Announcement, at: number) => void) | undefined;

const send = (report: ClientReport) => process.send?.(report);
const now = () => performance.timeOrigin + performance.now();

function open(url: string, userId: string): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: 60_000,
    auth: { userId },
  });
  socket.on('newNotification', (announcement: Announcement) => onArrival?.(announcement, now()));
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => reject(error));
  });
}

async function connect(url: string, userIds: string[]) {
  const started = performance.now();
  let next = 0;
  const opener = async () => {
    while (next < userIds.length) {
      const userId = userIds[next++]!;
      sockets.push(await open(url, userId));
    }
  };
  await Promise.all(Array.from({ length: OPENING_AT_ONCE }, opener));
  send({ type: 'connected', count: sockets.length, ms: Math.round(performance.now() - started) });
}

function expectRound(round: number, timeoutMs: number) {
  const latenciesMs: number[] = [];
  const expected = sockets.length;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    onArrival = undefined;
    clearTimeout(timer);
    send({ type: 'round', round, latenciesMs, expected });
  };
  const timer = setTimeout(finish, timeoutMs);
  onArrival = (announcement, at) => {
    if (announcement.details?.round !== round || typeof announcement.details.sentAt !== 'number') return;
    latenciesMs.push(at - announcement.details.sentAt);
    if (latenciesMs.length === expected) finish();
  };
  send({ type: 'listening', round });
}

process.on('message', (command: ClientCommand) => {
  void (async () => {
    try {
      if (command.type === 'connect') await connect(command.url, command.userIds);
      else if (command.type === 'expect') expectRound(command.round, command.timeoutMs);
      else {
        for (const socket of sockets) socket.close();
        sockets = [];
        send({ type: 'closed' });
      }
    } catch (error) {
      send({ type: 'failed', message: (error as Error).message });
    }
  })();
});
