import {
  SOCKET_RECONNECTION,
  VIDEO_NAMESPACE,
  type VideoClientToServerEvents,
  type VideoHandshakeRefusal,
  type VideoServerToClientEvents,
} from '@serendip/proto';
import type { Socket } from 'socket.io-client';

type ServerEvent = keyof VideoServerToClientEvents;

/** Everything the video socket tells the saga, as one stream of plain messages. */
export type VideoSocketMessage =
  | { [E in ServerEvent]: { type: E; payload: Parameters<VideoServerToClientEvents[E]>[0] } }[ServerEvent]
  | { type: 'connected' }
  | { type: 'disconnected'; reason: string }
  | { type: 'refused'; refusal: VideoHandshakeRefusal | null; message: string };

/**
 * The video socket as the saga sees it (STYLE.md rule 7: the Socket.IO object stays out of Redux). Tests swap in a
 * fake. `currentMatch` is what a reconnection tells the server, so a blip gets the call back (issue 7).
 */
export interface VideoSocketConnection {
  subscribe(listener: (message: VideoSocketMessage) => void): () => void;
  emit<E extends keyof VideoClientToServerEvents>(event: E, payload: Parameters<VideoClientToServerEvents[E]>[0]): void;
  /** The call this client is in, sent at every (re)connection so the server can resume it. */
  setCurrentMatch(matchId: string | null): void;
  readonly id: string | undefined;
  reconnect(): void;
  close(): void;
}

const SERVER_EVENTS: ServerEvent[] = [
  'matchFound',
  'matchResumed',
  'chatMessage',
  'offer',
  'answer',
  'ice-candidate',
  'partnerDisconnected',
  'mic-toggle',
  'camera-toggle',
  'speaking-status',
  'partner-network-quality',
  'rtc-fully-connected',
  'videoError',
];

type VideoSocket = Socket<VideoServerToClientEvents, VideoClientToServerEvents>;

/** spec 7: websocket transport only, on the API host; its own chunk, fetched when matching starts. */
export async function openVideoSocket(): Promise<VideoSocketConnection> {
  const { io } = await import('socket.io-client');
  let currentMatch: string | null = null;
  const socket: VideoSocket = io(VIDEO_NAMESPACE, {
    ...SOCKET_RECONNECTION, // spec 9
    transports: ['websocket'],
    withCredentials: true,
    auth: (send) => send(currentMatch ? { matchId: currentMatch } : {}),
  });
  return {
    subscribe(listener) {
      const off: (() => void)[] = [];
      for (const event of SERVER_EVENTS) {
        const handler = (payload: unknown) => listener({ type: event, payload } as VideoSocketMessage);
        socket.on(event, handler as never);
        off.push(() => socket.off(event, handler as never));
      }
      const onConnect = () => listener({ type: 'connected' });
      const onDisconnect = (reason: string) => listener({ type: 'disconnected', reason });
      const onError = (error: Error & { data?: VideoHandshakeRefusal }) =>
        listener({ type: 'refused', refusal: error.data?.code ? error.data : null, message: error.message });
      socket.on('connect', onConnect);
      socket.on('disconnect', onDisconnect);
      socket.on('connect_error', onError);
      if (socket.connected) onConnect();
      return () => {
        off.forEach((f) => f());
        socket.off('connect', onConnect);
        socket.off('disconnect', onDisconnect);
        socket.off('connect_error', onError);
      };
    },
    emit(event, payload) {
      (socket.emit as (event: string, payload: unknown) => void)(event, payload);
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
