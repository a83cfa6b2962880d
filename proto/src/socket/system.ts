import { z } from 'zod/mini';

/**
 * The system socket: the default Socket.IO namespace every client opens. Today it answers a ping; the
 * notification events of spec 7 (banStatusUpdated, newNotification, ...) join this map in later issues.
 */
export const pingRequestSchema = z.object({
  /** Client clock in ms, echoed back so the client can measure the round trip. */
  sentAt: z.number(),
});
export type PingRequest = z.infer<typeof pingRequestSchema>;

export interface Pong {
  sentAt: number;
  /** Server clock in ms when the ping arrived. */
  serverTime: number;
}

/** Sent instead of a normal answer when a client event is malformed or not allowed. */
export interface SocketErrorAnswer {
  error: { reason: string };
}

export type PingAck = (answer: Pong | SocketErrorAnswer) => void;

export interface SystemClientToServerEvents {
  ping: (request: PingRequest, ack: PingAck) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the notifications issue
export interface SystemServerToClientEvents {}

export const SYSTEM_EVENTS = { ping: 'ping' } as const satisfies Record<keyof SystemClientToServerEvents, string>;

/** spec 9: socket reconnection 10 attempts, 2000 ms delay, 10000 ms connection timeout. */
export const SOCKET_RECONNECTION = {
  reconnectionAttempts: 10,
  reconnectionDelay: 2000,
  timeout: 10000,
} as const;

export function isSocketError(answer: unknown): answer is SocketErrorAnswer {
  return typeof answer === 'object' && answer !== null && 'error' in answer;
}
