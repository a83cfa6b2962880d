import { AUTH_PATHS, type UserInfo } from '@serendip/proto';
import { act, screen } from '@testing-library/react';
import {
  aUser,
  type FakeServer,
  rememberSessionInThisBrowser,
  reply,
  serveFakeApi,
} from '../../features/auth/auth-test-support';
import type { SystemPush } from '../../features/system/system-socket';
import { renderApp } from '../../test-support/render-app';

/** Test-only: the feed's pages on the real store and sagas, a fake API and a fake system socket. */

let pushed = 0;

/** Signed in as `user` (Ada by default); `prepare` sets the feed's answers. */
export function signedIn(prepare: (server: FakeServer) => void, user: UserInfo = aUser()) {
  const server = serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
  prepare(server);
  rememberSessionInThisBrowser();
  return server;
}

/** The app at `path`; `push` is the server pushing on the system socket (each with a new event id). */
export function openApp(path: string) {
  const app = renderApp(path);
  const push = (event: SystemPush['event'], payload: object) =>
    act(() => {
      pushed += 1;
      app.socket.serverPushes({ event, payload: { ...payload, eventId: `feed-${pushed}` } } as SystemPush);
    });
  return { ...app, push };
}

export const postBy = (name: string, text?: string) =>
  screen.getAllByRole('article', { name: `Post by ${name}` }).find((a) => !text || a.textContent?.includes(text))!;
