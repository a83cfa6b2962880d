import { randomUUID } from 'node:crypto';
import type {
  MatchFilters,
  SystemClientToServerEvents,
  SystemServerToClientEvents,
  UserInfo,
  VideoClientToServerEvents,
  VideoServerToClientEvents,
} from '@serendip/proto';
import { io, type Socket } from 'socket.io-client';
import { ApiClient } from './api-client.js';

export type VideoClient = Socket<VideoServerToClientEvents, VideoClientToServerEvents>;
export type SystemClient = Socket<SystemServerToClientEvents, SystemClientToServerEvents>;

/** The password of every videoUser. */
export const VIDEO_USER_PASSWORD = 'violet-harbour-42';

export const ANYONE: MatchFilters = { gender: null, country: null, ageRange: [18, 110] };

export interface VideoUser {
  api: ApiClient;
  user: UserInfo;
  /** Opens the video socket with this user's session cookie; resolves once connected. */
  connect(auth?: Record<string, unknown>): Promise<VideoClient>;
}

/** A signed-up, finished user (through the HTTP API) who can open video sockets. */
export async function videoUser(
  base: string,
  profile: { firstName?: string; gender?: 'male' | 'female'; birthDate?: string; finished?: boolean } = {},
): Promise<VideoUser> {
  const api = new ApiClient(base);
  const emailAddress = `video-${randomUUID().slice(0, 8)}@example.com`;
  const signup = await api.call('POST', '/auth/signup', { emailAddress, password: VIDEO_USER_PASSWORD });
  if (signup.status !== 201) throw new Error(`sign-up answered ${signup.status}`);
  let user = signup.body as UserInfo;
  if (profile.finished !== false) {
    const done = await api.call('POST', '/auth/signup/complete', {
      firstName: profile.firstName ?? 'Ada',
      lastName: 'Lovelace',
      username: `u${randomUUID().slice(0, 8)}`,
      gender: profile.gender ?? 'female',
      birthDate: profile.birthDate ?? '1990-12-10',
    });
    if (done.status !== 200) throw new Error(`sign-up completion answered ${done.status}`);
    user = done.body as UserInfo;
  }
  return { api, user, connect: (auth) => openVideoSocket(base, api, auth) };
}

/** `prepare` runs before the connection is up: listeners for what the server sends at once (e.g. matchResumed). */
export function openVideoSocket(
  base: string,
  api: ApiClient,
  auth?: Record<string, unknown>,
  prepare?: (socket: VideoClient) => void,
): Promise<VideoClient> {
  const socket: VideoClient = io(`${base}/video`, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    extraHeaders: { Cookie: api.cookieHeader() },
    ...(auth ? { auth } : {}),
  });
  prepare?.(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** The system socket (the default namespace) as a page opens it, with `api`'s session cookie, or as a guest. */
export function openSystemSocket(base: string, api?: ApiClient): Promise<SystemClient> {
  const socket: SystemClient = io(base, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(api ? { extraHeaders: { Cookie: api.cookieHeader() } } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

/** The next `event` the socket receives, or a rejection after `timeoutMs`. */
export function nextEvent<E extends keyof VideoServerToClientEvents>(
  socket: VideoClient,
  event: E,
  timeoutMs = 5_000,
): Promise<Parameters<VideoServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener as never);
      reject(new Error(`no ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (payload: Parameters<VideoServerToClientEvents[E]>[0]) => {
      clearTimeout(timer);
      resolve(payload);
    };
    socket.once(event, listener as never);
  });
}

/** Everything `event` brought within `ms` (to show that something did not arrive). */
export async function eventsWithin<E extends keyof VideoServerToClientEvents>(
  socket: VideoClient,
  event: E,
  ms: number,
): Promise<Parameters<VideoServerToClientEvents[E]>[0][]> {
  const seen: Parameters<VideoServerToClientEvents[E]>[0][] = [];
  const listener = (payload: Parameters<VideoServerToClientEvents[E]>[0]) => seen.push(payload);
  socket.on(event, listener as never);
  await new Promise((r) => setTimeout(r, ms));
  socket.off(event, listener as never);
  return seen;
}
