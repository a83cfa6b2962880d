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
import { afterAll, afterEach, beforeAll } from 'vitest';
import { ApiClient } from './api-client.js';
import type { SmtpSink } from './smtp-sink.js';
import { startTestApp, type TestApp } from './test-app.js';

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
  /** Follows the link of the sign-up mail, as the person would; resolves once user-info says so. */
  confirmEmail(): Promise<void>;
}

/** The text of the first mail to `address` whose subject matches, as the test's app sent it. */
export type Mailbox = (address: string, subject: RegExp) => Promise<string>;

/** The app's dev outbox (GET /api/dev/outbox): any test app without SMTP_URL. */
export function devOutbox(base: string): Mailbox {
  return async (address, subject) => {
    for (let tries = 0; tries < 100; tries++) {
      // From this machine and without X-Forwarded-For: the outbox answers nobody else.
      const res = await fetch(`${base}/api/dev/outbox`);
      if (res.status !== 200) throw new Error(`the dev outbox answered ${res.status}; with SMTP_URL pass sinkMailbox`);
      const mails = (await res.json()) as { to: string; subject: string; text: string }[];
      const mail = mails.find((m) => m.to === address && subject.test(m.subject));
      if (mail) return mail.text;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`no mail to ${address} in the dev outbox`);
  };
}

/** The test's own SMTP sink, for an app started with SMTP_URL. */
export function sinkMailbox(sink: SmtpSink): Mailbox {
  return async (address, subject) =>
    (await sink.waitFor((m) => m.to.includes(address) && subject.test(m.subject))).text;
}

/**
 * A signed-up, finished user (through the HTTP API) who can open video sockets. Matching needs a confirmed e-mail
 * address, so the sign-up link is followed unless `confirmed: false`; `mailbox` is where the app's mail goes.
 */
export async function videoUser(
  base: string,
  profile: {
    firstName?: string;
    gender?: 'male' | 'female';
    birthDate?: string;
    finished?: boolean;
    confirmed?: boolean;
  } = {},
  mailbox: Mailbox = devOutbox(base),
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
  const person: VideoUser = {
    api,
    user,
    connect: (auth) => openVideoSocket(base, api, auth),
    confirmEmail: async () => {
      const mail = await mailbox(emailAddress, /Confirm your e-mail/);
      const token = /verify-email\?token=([\w-]+)/.exec(mail)?.[1];
      const verified = await api.call('POST', '/auth/verify-email', { token });
      if (verified.status !== 200) throw new Error(`verify-email answered ${verified.status}`);
      // The read model matching reads takes the confirmation in a moment later.
      for (let tries = 0; tries < 100; tries++) {
        const info = await api.call('GET', '/auth/user-info');
        if ((info.body as UserInfo).emailVerified) {
          person.user = info.body as UserInfo;
          return;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('user-info never said the e-mail address was confirmed');
    },
  };
  if (profile.confirmed !== false) await person.confirmEmail();
  return person;
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

/**
 * One backend for a file of video-socket tests: started before them, stopped after, and every socket a test put in
 * `open` closed when that test ends (so no call of one test pairs with the next test's users).
 */
export function videoTestApp(): { readonly app: TestApp; open: VideoClient[] } {
  let app: TestApp | undefined;
  const open: VideoClient[] = [];
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterEach(() => {
    for (const socket of open.splice(0)) socket.close();
  });
  afterAll(async () => {
    await app?.close();
  });
  return {
    get app() {
      if (!app) throw new Error('the test app is not started yet (use it inside a test or hook)');
      return app;
    },
    open,
  };
}
