import type { WorkerLoad } from '@serendip/proto';
import { createWorker, type types } from 'mediasoup';
import type { Logger } from 'pino';
import { MEDIA_CODECS } from './media-codecs.js';
import { Room, type RoomNetwork, samePeers } from './room.js';
import { SfuError } from './sfu-error.js';

export interface WorkerPoolOptions extends RoomNetwork {
  /** How many mediasoup workers (processes); one per core is the usual choice. */
  workers: number;
  rtcMinPort: number;
  rtcMaxPort: number;
  /** The most rooms this node holds at once; `defaultMaxRooms` of the port range when unset. */
  maxRooms?: number;
  /** The number of rooms open or being made changed (the service leaves or rejoins the createRoom queue). */
  onRoomsChanged?(): void;
  logger: Logger;
  /** A room closed because its worker died; the service tells the backend, which recreates it. */
  onRoomLost(roomId: string, reason: string): void;
}

/** A call's two WebRTC transport pairs: each transport listens on a port of its own (UDP, and TCP beside it). */
export const PORTS_PER_ROOM = 4;

/**
 * As many rooms as the node's RTC port range holds, keeping a tenth of it free for what else takes ports from it:
 * a server snapshot's transport (2 ports while it runs). Workers share the range, so it is the node's, not each
 * worker's.
 */
export function defaultMaxRooms(rtcMinPort: number, rtcMaxPort: number): number {
  const ports = rtcMaxPort - rtcMinPort + 1;
  return Math.max(1, Math.floor((ports - Math.ceil(ports / 10)) / PORTS_PER_ROOM));
}

interface Slot {
  worker: types.Worker;
  rooms: Set<Room>;
  /** Share of one core over the last sampling interval. */
  cpu: number;
  cpuMs: number;
  sampledAt: number;
}

/**
 * The node's mediasoup workers and the rooms placed on them. A new room goes to the worker with the
 * fewest consumers, then the fewest rooms; a worker that dies is replaced and its rooms are reported lost.
 * The node takes at most `maxRooms` rooms: past that its ports would run out under calls already running.
 * MEDIASOUP_WORKER_BIN, read by mediasoup itself, names the worker binary.
 */
export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly rooms = new Map<string, Room>();
  /** Rooms being created, so that two createRoom requests for one call make one router. */
  private readonly opening = new Map<string, { peerIds: readonly [string, string]; room: Promise<Room> }>();
  private closed = false;
  private nextSlot = 0;
  /** Workers being started in place of dead ones. */
  private readonly replacing = new Set<Promise<void>>();
  readonly maxRooms: number;

  private constructor(private readonly options: WorkerPoolOptions) {
    this.maxRooms = options.maxRooms ?? defaultMaxRooms(options.rtcMinPort, options.rtcMaxPort);
  }

  /** Rejects with the reason when a worker cannot be started (no binary, wrong version, missing libraries). */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    const pool = new WorkerPool(options);
    try {
      for (let i = 0; i < options.workers; i++) pool.slots.push(await pool.spawn());
    } catch (error) {
      pool.close();
      throw error;
    }
    return pool;
  }

  room(roomId: string): Room | undefined {
    return this.rooms.get(roomId);
  }

  /** Every open room, by id. */
  allRooms(): ReadonlyMap<string, Room> {
    return this.rooms;
  }

  /** Whether the node holds (or is making) as many rooms as it may. */
  get full(): boolean {
    const beingMade = [...this.opening.keys()].filter((roomId) => !this.rooms.has(roomId)).length;
    return this.rooms.size + beingMade >= this.maxRooms;
  }

  /**
   * The room of this call, made on the least loaded worker if it does not exist yet. Asked again (a retry, a
   * second backend) it answers the same room, but only for the same two peers.
   */
  async openRoom(roomId: string, peerIds: readonly [string, string]): Promise<Room> {
    const existing = this.rooms.get(roomId);
    const opening = this.opening.get(roomId);
    if (existing || opening) {
      if (!samePeers(existing?.peerIds ?? opening!.peerIds, peerIds)) {
        throw new SfuError('invalid', 'That room was made for other peers.');
      }
      return existing ?? opening!.room;
    }
    if (this.full) throw new SfuError('unavailable', `This node holds as many rooms as it can (${this.maxRooms}).`);
    const room = this.createRoom(roomId, peerIds).finally(() => {
      this.opening.delete(roomId);
      this.options.onRoomsChanged?.();
    });
    this.opening.set(roomId, { peerIds, room });
    this.options.onRoomsChanged?.();
    return room;
  }

  load(): WorkerLoad[] {
    return this.slots.map(({ worker, rooms, cpu }) => {
      const load: WorkerLoad = { pid: worker.pid, rooms: rooms.size, transports: 0, producers: 0, consumers: 0, cpu };
      for (const room of rooms) {
        const counts = room.counts();
        load.transports += counts.transports;
        load.producers += counts.producers;
        load.consumers += counts.consumers;
      }
      return load;
    });
  }

  /** Reads each worker's CPU time and turns the change since the last reading into a share of one core. */
  async sampleCpu(): Promise<void> {
    await Promise.all(
      this.slots.map(async (slot) => {
        if (slot.worker.closed) return;
        const usage = await slot.worker.getResourceUsage().catch(() => undefined);
        if (!usage) return;
        const now = Date.now();
        const cpuMs = usage.ru_utime + usage.ru_stime;
        const elapsed = now - slot.sampledAt;
        if (elapsed > 0) slot.cpu = Math.min(1, Math.max(0, (cpuMs - slot.cpuMs) / elapsed));
        slot.cpuMs = cpuMs;
        slot.sampledAt = now;
      }),
    );
  }

  close(): void {
    this.closed = true;
    // Closing a worker closes its routers, and so every room.
    for (const slot of this.slots) slot.worker.close();
  }

  private async createRoom(roomId: string, peerIds: readonly [string, string]): Promise<Room> {
    // A node whose only worker just died: its rooms are asked for again at once, and wait for the replacement.
    if (!this.slots.some((slot) => !slot.worker.closed)) await Promise.all(this.replacing);
    const slot = this.leastLoaded();
    const router = await slot.worker.createRouter({ mediaCodecs: MEDIA_CODECS });
    const room = new Room(roomId, peerIds, router, this.options, (closedRoom, lost) => {
      slot.rooms.delete(closedRoom);
      if (this.rooms.get(roomId) === closedRoom) this.rooms.delete(roomId);
      if (lost && !this.closed) this.options.onRoomLost(roomId, `its media worker (pid ${slot.worker.pid}) died`);
      this.options.onRoomsChanged?.();
    });
    if (router.closed) throw new SfuError('failed', 'The media worker stopped while the room was being made.');
    slot.rooms.add(room);
    this.rooms.set(roomId, room);
    return room;
  }

  private leastLoaded(): Slot {
    const live = this.slots.filter((slot) => !slot.worker.closed);
    if (live.length === 0) throw new SfuError('unavailable', 'No media worker is running on this node.');
    // Start from a rotating index so equally loaded workers take turns.
    const start = this.nextSlot++ % live.length;
    const rotated = [...live.slice(start), ...live.slice(0, start)];
    const consumers = (slot: Slot) => [...slot.rooms].reduce((sum, room) => sum + room.counts().consumers, 0);
    return rotated.reduce((best, slot) => {
      const byConsumers = consumers(slot) - consumers(best);
      return byConsumers < 0 || (byConsumers === 0 && slot.rooms.size < best.rooms.size) ? slot : best;
    });
  }

  private async spawn(): Promise<Slot> {
    const { rtcMinPort, rtcMaxPort } = this.options;
    const worker = await createWorker({ rtcMinPort, rtcMaxPort, logLevel: 'warn' });
    const slot: Slot = { worker, rooms: new Set(), cpu: 0, cpuMs: 0, sampledAt: Date.now() };
    worker.on('died', (error: Error) => void this.replace(slot, error));
    return slot;
  }

  /** By the time 'died' fires, mediasoup has closed the worker's routers, and the rooms reported themselves lost. */
  private replace(dead: Slot, error: Error): Promise<void> {
    const replacing = this.startReplacement(dead, error).finally(() => this.replacing.delete(replacing));
    this.replacing.add(replacing);
    return replacing;
  }

  private async startReplacement(dead: Slot, error: Error): Promise<void> {
    this.options.logger.error({ pid: dead.worker.pid, err: error }, 'mediasoup worker died; starting another');
    if (this.closed) return;
    try {
      const fresh = await this.spawn();
      if (this.closed) {
        fresh.worker.close();
        return;
      }
      this.slots.splice(this.slots.indexOf(dead), 1, fresh);
      this.options.logger.info({ pid: fresh.worker.pid }, 'replacement mediasoup worker started');
    } catch (spawnError) {
      this.slots.splice(this.slots.indexOf(dead), 1);
      this.options.logger.error({ err: spawnError }, 'could not replace the dead mediasoup worker');
    }
  }
}
