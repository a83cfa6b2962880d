import {
  isSocketError,
  MATCH_TIMING,
  SOCKET_RECONNECTION,
  VIDEO_NAMESPACE,
  type SocketErrorAnswer,
  type VideoClientToServerEvents,
  type VideoHandshakeAuth,
  type VideoHandshakeRefusal,
  type VideoServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io-client';
import type { RelaySignalling } from './relay-call';

type ServerEvent = keyof VideoServerToClientEvents;

/** Everything the video socket tells the saga, as one stream of plain messages. */
export type VideoSocketMessage =
  | { [E in ServerEvent]: { type: E; payload: Parameters<VideoServerToClientEvents[E]>[0] } }[ServerEvent]
  | { type: 'connected' }
  | { type: 'disconnected'; reason: string }
  | { type: 'refused'; refusal: VideoHandshakeRefusal | null; message: string };

/** The client events the server answers with an ack the client waits for (the relay's signalling). */
export type VideoRequestEvent = 'media:join' | 'media:connect' | 'media:produce' | 'media:consume' | 'media:resume';

/** What an event's ack carries when the server did it (a refusal rejects the request instead). */
export type VideoRequestAnswer<E extends VideoRequestEvent> = Parameters<VideoClientToServerEvents[E]>[1] extends (
  answer: infer A,
) => void
  ? Exclude<A, SocketErrorAnswer>
  : never;

/** The server refused a request (its error ack); `message` is the server's reason. */
export class VideoRequestRefused extends Error {
  constructor(
    readonly event: VideoRequestEvent,
    reason: string,
  ) {
    super(reason);
    this.name = 'VideoRequestRefused';
  }
}

/** An unanswered request fails after this long, well within the call's own connection timeout. */
const REQUEST_TIMEOUT_MS = MATCH_TIMING.connectionTimeoutMs / 2;

/**
 * The video socket as the saga sees it (STYLE.md rule 7: the Socket.IO object stays out of Redux). Tests swap in a
 * fake. `currentMatch` is what a reconnection tells the server, so a blip gets the call back (spec 9).
 */
export interface VideoSocketConnection {
  subscribe(listener: (message: VideoSocketMessage) => void): () => void;
  emit<E extends keyof VideoClientToServerEvents>(event: E, payload: Parameters<VideoClientToServerEvents[E]>[0]): void;
  /** Sends an event and waits for its ack; rejects with VideoRequestRefused on an error ack, or on no answer. */
  request<E extends VideoRequestEvent>(
    event: E,
    payload: Parameters<VideoClientToServerEvents[E]>[0],
  ): Promise<VideoRequestAnswer<E>>;
  /** The call this client is in, sent at every (re)connection so the server can resume it. */
  setCurrentMatch(matchId: string | null): void;
  readonly id: string | undefined;
  reconnect(): void;
  close(): void;
}

/** The relay's signalling over this socket: each step a request the server acks. */
export function relaySignalling(socket: VideoSocketConnection): RelaySignalling {
  return {
    join: () => socket.request('media:join', {}),
    connect: async (request) => {
      await socket.request('media:connect', request);
    },
    produce: (request) => socket.request('media:produce', request),
    consume: (request) => socket.request('media:consume', request),
    resume: async (request) => {
      await socket.request('media:resume', request);
    },
  };
}

const SERVER_EVENTS: ServerEvent[] = [
  'matchFound',
  'matchResumed',
  'chatMessage',
  'offer',
  'answer',
  'ice-candidate',
  'partnerDisconnected',
  'partnerReconnecting',
  'partnerReconnected',
  'typing',
  'mic-toggle',
  'camera-toggle',
  'speaking-status',
  'partner-network-quality',
  'rtc-fully-connected',
  'media:path',
  'media:producer',
  'media:reconnect',
  'videoError',
];

type VideoSocket = Socket<VideoServerToClientEvents, VideoClientToServerEvents>;

/**
 * spec 7: websocket transport only, on the API host; its own chunk, fetched when matching starts. `resume`: the call a
 * new page (a reload, a new tab) goes back to: its handshake names it as `fresh`, so the server restarts its media.
 */
export async function openVideoSocket(resume?: { matchId: string }): Promise<VideoSocketConnection> {
  const { io } = await import('socket.io-client');
  let currentMatch: string | null = resume?.matchId ?? null;
  // Only the first connection is the new page's; a later reconnect is a blip of this one.
  let fresh = resume !== undefined;
  const handshake = (): VideoHandshakeAuth =>
    currentMatch ? { matchId: currentMatch, ...(fresh ? { fresh: true } : {}) } : {};
  const socket: VideoSocket = io(VIDEO_NAMESPACE, {
    ...SOCKET_RECONNECTION, // spec 9
    transports: ['websocket'],
    withCredentials: true,
    auth: (send) => send(handshake()),
  });
  // NOTE: a resumed call's matchResumed may come before anyone subscribes (the camera is still starting): what the
  // socket says meanwhile is kept for the first listener.
  const listeners = new Set<(message: VideoSocketMessage) => void>();
  const early: VideoSocketMessage[] = [];
  const tell = (message: VideoSocketMessage) => {
    if (listeners.size === 0) early.push(message);
    listeners.forEach((l) => l(message));
  };
  for (const event of SERVER_EVENTS) {
    socket.on(event, ((payload: unknown) => tell({ type: event, payload } as VideoSocketMessage)) as never);
  }
  socket.on('connect', () => {
    fresh = false;
    tell({ type: 'connected' });
  });
  socket.on('disconnect', (reason) => tell({ type: 'disconnected', reason }));
  socket.on('connect_error', (error: Error & { data?: VideoHandshakeRefusal }) =>
    tell({ type: 'refused', refusal: error.data?.code ? error.data : null, message: error.message }),
  );
  return {
    subscribe(listener) {
      const missed = early.splice(0);
      listeners.add(listener);
      if (missed.length) missed.forEach(listener);
      else if (socket.connected) listener({ type: 'connected' });
      return () => listeners.delete(listener);
    },
    emit(event, payload) {
      (socket.emit as (event: string, payload: unknown) => void)(event, payload);
    },
    async request(event, payload) {
      // The typed map can't name "this event's ack" for a generic event; the answer is checked below.
      const timed = socket.timeout(REQUEST_TIMEOUT_MS) as unknown as {
        emitWithAck: (event: string, payload: unknown) => Promise<unknown>;
      };
      let answer: unknown;
      try {
        answer = await timed.emitWithAck(event, payload);
      } catch {
        throw new VideoRequestRefused(event, `no answer to ${event}`);
      }
      if (isSocketError(answer)) throw new VideoRequestRefused(event, answer.error.reason);
      return answer as VideoRequestAnswer<typeof event>;
    },
    setCurrentMatch(matchId) {
      currentMatch = matchId;
    },
    get id() {
      return socket.id;
    },
    reconnect() {
      if (!socket.connected) socket.connect();
    },
    close() {
      socket.disconnect();
    },
  };
}
