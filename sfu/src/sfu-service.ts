import { randomUUID } from 'node:crypto';
import { availableParallelism } from 'node:os';
import {
  type HealthAnswer,
  type RoomLost,
  type SfuAnswers,
  type SfuLoad,
  type SfuReply,
  type SfuRequest,
  type SfuRpcPort,
  type WorkerLoad,
  SFU_QUEUE,
  SFU_SUBJECTS,
} from '@serendip/proto';
import type { Logger } from 'pino';
import { startHealthServer } from './health-server.js';
import type { Room } from './media/room.js';
import { SfuError } from './media/sfu-error.js';
import { takeSnapshot } from './media/snapshot.js';
import { WorkerPool } from './media/worker-pool.js';
import { parseSfuRequest } from './sfu-request.js';

export interface SfuOptions {
  /** Port of the health endpoint the orchestrator (docker-compose, k8s) probes; 0 picks a free one. */
  healthPort: number;
  host: string;
  logger: Logger;
  /** The bus; without it the node runs (health, workers) but serves no relay requests. */
  rpc?: SfuRpcPort;
  /** Names this node in `SFU_SUBJECTS.node(nodeId)`; random by default. */
  nodeId?: string;
  /** mediasoup workers; one per core by default. */
  workers?: number;
  /** Where WebRTC transports listen; 127.0.0.1 by default (local runs and tests). */
  listenIp?: string;
  /** The public address put in ICE candidates, when it differs from `listenIp` (0.0.0.0, NAT, containers). */
  announcedIp?: string;
  rtcMinPort?: number;
  rtcMaxPort?: number;
  /**
   * The most rooms (calls) this node holds at once; by default as many as the RTC port range holds (4 ports a
   * call, a tenth of the range kept for snapshots). A full node leaves the createRoom queue until a call ends.
   */
  maxRooms?: number;
  /** How often the node publishes its load on `SFU_SUBJECTS.load`; 5 s by default. */
  loadIntervalMs?: number;
  /**
   * A room no browser has been connected to for this long is closed (2 minutes by default): a call whose backend
   * died without closing it must not hold ports and worker load for good.
   */
  idleRoomMs?: number;
}

export interface SfuHealth extends HealthAnswer {
  relay: boolean;
  disabledReason: string | null;
  nodeId: string;
  workers: WorkerLoad[];
}

export interface RunningSfu {
  /** The port the health endpoint listens on. */
  port: number;
  nodeId: string;
  /** Why relay is off on this node (no worker could be started), or null when it is on. */
  disabledReason: string | null;
  load(): SfuLoad;
  /**
   * The rooms this node holds, by room id. For tests and diagnostics (feeding a server-side media source into
   * a room, checking that closing frees everything); the backend goes through the RPC.
   */
  rooms(): ReadonlyMap<string, Room>;
  /** Closes the RPC subscriptions, the rooms and workers, and the health endpoint. */
  stop(): Promise<void>;
}

/**
 * The media service (DESIGN.md "Matching"): mediasoup workers holding one router per call, driven over the bus by the
 * backend. If no worker can be started the service still runs and says why: relay and server snapshots are
 * off, every request answers 'unavailable', and calls fall back to peer-to-peer.
 */
export async function startSfu(options: SfuOptions): Promise<RunningSfu> {
  const { logger, rpc } = options;
  const nodeId = options.nodeId ?? randomUUID();
  let pool: WorkerPool | undefined;
  let disabledReason: string | null = null;
  // Set once the pool exists: rooms closing as the pool starts or stops have no queue to change.
  let roomsChanged = () => {};
  try {
    pool = await WorkerPool.start({
      workers: options.workers ?? availableParallelism(),
      rtcMinPort: options.rtcMinPort ?? 40_000,
      rtcMaxPort: options.rtcMaxPort ?? 49_999,
      maxRooms: options.maxRooms,
      onRoomsChanged: () => roomsChanged(),
      listenIp: options.listenIp ?? '127.0.0.1',
      announcedIp: options.announcedIp,
      logger,
      onRoomLost: (roomId, reason) => {
        const lost: RoomLost = { nodeId, roomId, reason };
        logger.warn(lost, 'room lost');
        void rpc?.publish(SFU_SUBJECTS.roomLost, lost).catch((err: unknown) => {
          logger.error({ err, roomId }, 'could not publish a lost room');
        });
      },
    });
  } catch (error) {
    disabledReason = workerFailure(error);
    logger.warn(`Media relay and server snapshots are off: ${disabledReason}`);
  }

  const load = (): SfuLoad => ({ nodeId, workers: pool?.load() ?? [], disabledReason, at: new Date().toISOString() });

  const reply = async (raw: unknown, subject: 'createRoom' | 'node'): Promise<SfuReply> => {
    try {
      const request = parseSfuRequest(raw);
      if (request.type === 'load') return { ok: true, result: load() };
      if (!pool) throw new SfuError('unavailable', `Media relay is off on this node: ${disabledReason}`);
      if (subject === 'createRoom' && request.type !== 'createRoom') {
        throw new SfuError(
          'invalid',
          `Only createRoom goes to ${SFU_SUBJECTS.createRoom}; send ${request.type} to the room's node.`,
        );
      }
      return { ok: true, result: await answer(pool, nodeId, request) };
    } catch (error) {
      return failure(error, logger);
    }
  };
  // A node without workers takes no new rooms (another node of the queue group will), but still answers its own.
  const nodeSubscription = rpc?.serve(SFU_SUBJECTS.node(nodeId), (raw) => reply(raw, 'node'));
  // Nor does a full one, until a call ends: the queue group gives the room to a node with room to spare, and with
  // none the backend hears no answer, which it takes as relay unavailable. A request already on its way answers
  // 'unavailable'.
  const createRoomQueue = pool && rpc ? roomQueue(pool, rpc, (raw) => reply(raw, 'createRoom'), logger) : undefined;
  roomsChanged = () => createRoomQueue?.update();
  createRoomQueue?.update();

  const idleRoomMs = options.idleRoomMs ?? 120_000;
  const publishLoad = async () => {
    for (const room of pool?.allRooms().values() ?? []) {
      if (room.idleFor() < idleRoomMs) continue;
      logger.info({ roomId: room.id }, 'closing an abandoned room');
      room.close();
    }
    await pool?.sampleCpu();
    await rpc?.publish(SFU_SUBJECTS.load, load());
  };
  // Announced at once too: the backend learns that relay is on before the first call, not 5 s later.
  void publishLoad().catch((err: unknown) => logger.error({ err }, 'could not publish the load'));
  const loadTimer = setInterval(() => {
    publishLoad().catch((err: unknown) => logger.error({ err }, 'could not publish the load'));
  }, options.loadIntervalMs ?? 5_000);
  loadTimer.unref();

  const health = await startHealthServer(options.healthPort, options.host, (): SfuHealth => ({
    message: pool ? 'Serendip SFU is up' : 'Serendip SFU is up; media relay is off',
    relay: Boolean(pool),
    disabledReason,
    nodeId,
    workers: pool?.load() ?? [],
  }));
  logger.info({ port: health.port, nodeId, workers: pool?.load().length ?? 0 }, 'sfu started');

  return {
    port: health.port,
    nodeId,
    disabledReason,
    load,
    rooms: () => pool?.allRooms() ?? new Map(),
    stop: async () => {
      clearInterval(loadTimer);
      await Promise.all([createRoomQueue?.close(), nodeSubscription?.close()]);
      pool?.close();
      await health.close();
    },
  };
}

type RoomRequest = Exclude<SfuRequest, { type: 'load' }>;

async function answer(
  pool: WorkerPool,
  nodeId: string,
  request: RoomRequest,
): Promise<SfuAnswers[RoomRequest['type']]> {
  switch (request.type) {
    case 'createRoom': {
      const room = await pool.openRoom(request.roomId, request.peerIds);
      return { nodeId, roomId: room.id, routerRtpCapabilities: room.router.rtpCapabilities as Record<string, unknown> };
    }
    case 'joinRoom':
      return roomOf(pool, request.roomId).join(request.peerId);
    case 'connectTransport':
      await roomOf(pool, request.roomId).connectTransport(request.peerId, request.transportId, request.dtlsParameters);
      return { connected: true };
    case 'produce':
      return {
        producerId: await roomOf(pool, request.roomId).produce(request.peerId, request.kind, request.rtpParameters),
      };
    case 'consume':
      return roomOf(pool, request.roomId).consume(request.peerId, request.producerId, request.rtpCapabilities);
    case 'resumeConsumer':
      await roomOf(pool, request.roomId).resumeConsumer(request.peerId, request.consumerId);
      return { resumed: true };
    case 'closeRoom': {
      const room = pool.room(request.roomId);
      room?.close();
      return { closed: Boolean(room) };
    }
    case 'snapshot': {
      const room = pool.room(request.roomId);
      if (!room) throw new SfuError('not-found', 'That user is not in a relayed call.');
      return takeSnapshot(room.router, room.videoProducer(request.peerId));
    }
    default:
      return request satisfies never;
  }
}

/** The node's place in the createRoom queue group, taken while it has room for another call. */
function roomQueue(
  pool: WorkerPool,
  rpc: SfuRpcPort,
  handler: (raw: unknown) => Promise<unknown>,
  logger: Logger,
): { update(): void; close(): Promise<void> } {
  let subscription: { close(): Promise<void> } | undefined;
  let closed = false;
  const leave = () => {
    const left = subscription;
    subscription = undefined;
    return left?.close().catch((err: unknown) => logger.error({ err }, 'could not leave the createRoom queue'));
  };
  return {
    update() {
      if (closed) return;
      if (pool.full && subscription) {
        logger.info({ maxRooms: pool.maxRooms }, 'node full: taking no new rooms');
        void leave();
      } else if (!pool.full && !subscription) {
        subscription = rpc.serve(SFU_SUBJECTS.createRoom, handler, { queue: SFU_QUEUE });
      }
    },
    async close() {
      closed = true;
      await leave();
    },
  };
}

function roomOf(pool: WorkerPool, roomId: string): Room {
  const room = pool.room(roomId);
  if (!room) throw new SfuError('not-found', 'No such room on this node (the call ended, or its media worker died).');
  return room;
}

function failure(error: unknown, logger: Logger): SfuReply {
  if (error instanceof SfuError) return { ok: false, error: { code: error.code, reason: error.reason } };
  // mediasoup answers parameters it refuses with a TypeError, our 'invalid'. Its words (or a bug's) go to
  // the log; the client hears a reason of ours.
  if (error instanceof TypeError) {
    logger.warn({ err: error }, 'media parameters refused');
    return { ok: false, error: { code: 'invalid', reason: 'The media parameters were refused.' } };
  }
  logger.error({ err: error }, 'sfu request failed');
  return { ok: false, error: { code: 'failed', reason: error instanceof Error ? error.message : String(error) } };
}

function workerFailure(error: unknown): string {
  const bin = process.env.MEDIASOUP_WORKER_BIN ?? "the mediasoup package's own build";
  const message = error instanceof Error ? error.message : String(error);
  return `the mediasoup worker (${bin}) could not start: ${message} (build one with: node scripts/mediasoup-worker.mjs)`;
}
