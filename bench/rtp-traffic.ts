/**
 * The benchmark's synthetic peers: one generator sending every stream's RTP from this process, and
 * receiving sockets feeding the current measurement window. Kept cheap because it shares the machine's 2 cores
 * with the mediasoup worker: packets are built once and rewritten in place; each 5 ms tick sends a quarter of the
 * streams, so every stream sends one packet per 20 ms without all of them bursting at once.
 */
import { createSocket, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import { type RelayWindow } from './relay-stats.js';
import { readProbe, type RtpStreamWriter } from './rtp.js';

export const TICK_MS = 5;
export const PHASES = 4; // one packet per stream every TICK_MS * PHASES = 20 ms
/**
 * A tick late by up to 200 ms (the machine is shared) catches up in a burst; further behind, the generator skips
 * ahead and the packets it skipped count against its send rate: it could not keep up.
 */
const MAX_BEHIND_SLOTS = 40;
const LOCALHOST = '127.0.0.1';
const RECEIVE_BUFFER_BYTES = 1 << 20;

interface OutgoingStream {
  writer: RtpStreamWriter;
  socket: Socket;
}

export class RtpGenerator {
  /** The measurement window that counts what is sent and received, if one is open. */
  window: RelayWindow | undefined;
  private readonly groups: OutgoingStream[][] = Array.from({ length: PHASES }, () => []);
  private streamCount = 0;
  private startedAt = 0;
  private nextSlot = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Packets that were due but not sent because the process fell behind. */
  skipped = 0;
  /** Milliseconds spent inside send ticks, to tell a busy generator from an idle one. */
  busyMs = 0;

  get streams(): number {
    return this.streamCount;
  }

  /** The slot the next tick sends; windows open and close on slot boundaries. */
  get slot(): number {
    return this.nextSlot;
  }

  add(writer: RtpStreamWriter, socket: Socket): void {
    if (writer.stream !== this.streamCount) throw new Error('streams are added in order, numbered from 0');
    this.groups[writer.stream % PHASES]!.push({ writer, socket });
    this.streamCount++;
  }

  /** Packets a window spanning these slots should carry, whatever the process managed to send. */
  expected(fromSlot: number, toSlot: number): number {
    let n = 0;
    for (let slot = fromSlot; slot < toSlot; slot++) n += this.groups[slot % PHASES]!.length;
    return n;
  }

  start(): void {
    this.startedAt = performance.now();
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private tick(): void {
    const began = performance.now();
    const due = Math.floor((began - this.startedAt) / TICK_MS);
    if (due - this.nextSlot > MAX_BEHIND_SLOTS) {
      this.skipped += this.expected(this.nextSlot, due - MAX_BEHIND_SLOTS);
      this.nextSlot = due - MAX_BEHIND_SLOTS;
    }
    for (; this.nextSlot <= due; this.nextSlot++) this.send(this.nextSlot);
    this.busyMs += performance.now() - began;
  }

  private send(slot: number): void {
    const window = this.window;
    for (const { writer, socket } of this.groups[slot % PHASES]!) {
      socket.send(writer.next(slot, performance.now()));
      window?.sent(writer.stream, slot);
    }
  }
}

/** A socket bound on loopback: the receiving side of a peer, feeding whatever window the generator holds. */
export async function receivingSocket(generator: RtpGenerator): Promise<Socket> {
  const socket = createSocket({ type: 'udp4', recvBufferSize: RECEIVE_BUFFER_BYTES });
  socket.on('message', (packet) => {
    const window = generator.window;
    if (!window) return;
    const probe = readProbe(packet);
    if (probe) window.received(probe, performance.now());
  });
  await new Promise<void>((resolve) => socket.bind(0, LOCALHOST, resolve));
  return socket;
}

/**
 * A sending socket connected to one port, so each send skips the address lookup. RTCP coming back (receiver
 * reports, PLIs) is read and dropped: the generator sends key frames on its own schedule.
 */
export async function sendingSocket(port: number): Promise<Socket> {
  const socket = createSocket({ type: 'udp4' });
  socket.on('message', () => {});
  socket.on('error', () => {}); // ICMP port unreachable while a peer is being torn down
  await new Promise<void>((resolve) => socket.bind(0, LOCALHOST, resolve));
  await new Promise<void>((resolve) => socket.connect(port, LOCALHOST, resolve));
  return socket;
}

export function localPort(socket: Socket): number {
  return socket.address().port;
}
