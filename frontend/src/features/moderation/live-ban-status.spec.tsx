import { AUTH_PATHS } from '@serendip/proto';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import {
  aUser,
  inTurn,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../auth/auth-test-support';
import { aMatch, fakeMatchingServices } from '../matching/matching-test-support';
import { initialMatchingState } from '../matching/matching.slice';
import { aBan, BANNED_USER_PATHS, signedInBanned } from './moderation-test-support';
import '../../ui/test-polyfills';

/** Ada in a call with Bob on /video-match, the system socket connected. */
async function inACall() {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser()))
    .on('GET', BANNED_USER_PATHS.banInfo, reply(200, { isBanned: true, ban: aBan() }));
  rememberSessionInThisBrowser();
  const matching = fakeMatchingServices();
  const app = renderApp('/video-match', {
    preloadedState: { matching: { ...initialMatchingState(), view: 'ready' } },
    services: { matching: matching.services },
  });
  await userEvent.click(await screen.findByRole('button', { name: 'Start Matching' }));
  await waitFor(() => expect(matching.socket.sentOf('startMatching')).toHaveLength(1));
  act(() => matching.socket.receive({ type: 'matchFound', payload: aMatch() }));
  await screen.findByRole('button', { name: /Skip Conversation/ });
  act(() => app.socket.serverConnects());
  return { ...app, server, matching };
}

describe('live ban status (spec 4 "Live ban status")', () => {
  afterEach(resetBrowser);

  it('shows the banned screen at once when the server bans the current user, and the camera goes off', async () => {
    const { socket, matching } = await inACall();

    act(() =>
      socket.serverPushes({ event: 'banStatusUpdated', payload: { eventId: 'e-1', userId: 'user-1', isBanned: true } }),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Account Restricted' })).toBeDefined();
    expect(await screen.findByRole('heading', { name: 'Ban Status' })).toBeDefined();
    expect(screen.queryByRole('button', { name: /Skip Conversation/ })).toBeNull();
    // The matching session ends with the page: camera and microphone off, the video socket closed.
    await waitFor(() => expect(matching.media.calls).toContain('stop'));
    expect(matching.socket.closed).toBe(true);
  });

  it("ignores a ban of another user (the event's userId is not the current user)", async () => {
    const { socket, server, store, matching } = await inACall();

    act(() =>
      socket.serverPushes({ event: 'banStatusUpdated', payload: { eventId: 'e-2', userId: 'user-2', isBanned: true } }),
    );

    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(store.getState().session.user?.isBanned).toBe(false);
    expect(screen.queryByRole('heading', { name: 'Account Restricted' })).toBeNull();
    expect(screen.getByRole('button', { name: /Skip Conversation/ })).toBeDefined();
    expect(matching.media.calls).not.toContain('stop');
    expect(server.requestsTo('GET', BANNED_USER_PATHS.banInfo)).toHaveLength(0);
  });

  it('asks for user info again when the ban is lifted, and the page comes back', async () => {
    const server = signedInBanned().on(
      'GET',
      AUTH_PATHS.userInfo,
      inTurn(reply(200, aUser({ isBanned: true })), reply(200, aUser({ isBanned: false, firstName: 'Ada' }))),
    );
    const { socket } = renderApp('/security-center');
    await screen.findByRole('heading', { name: 'Ban Status' });
    act(() => socket.serverConnects());

    act(() =>
      socket.serverPushes({
        event: 'banStatusUpdated',
        payload: { eventId: 'e-3', userId: 'user-1', isBanned: false },
      }),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Security Center' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Account Restricted' })).toBeNull();
    await waitFor(() => expect(server.requestsTo('GET', AUTH_PATHS.userInfo)).toHaveLength(2));
  });

  it('checks user info when the video socket is refused as banned, so the banned screen shows without the push', async () => {
    const { server, matching } = await inACall();
    server.on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isBanned: true })));

    // The push was missed (the connection dropped at that moment); the video socket's refusal still arrives.
    act(() =>
      matching.socket.receive({
        type: 'videoError',
        payload: { code: 'banned', reason: 'Your account is restricted.' },
      }),
    );

    expect(await screen.findByRole('heading', { level: 1, name: 'Account Restricted' })).toBeDefined();
    await waitFor(() => expect(matching.media.calls).toContain('stop'));
  });

  it('asks user info again when the system socket comes back, so a ban pushed while it was down still shows', async () => {
    const { socket, server } = await inACall();
    act(() => socket.serverDrops());
    server.on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isBanned: true })));

    act(() => socket.serverConnects());

    expect(await screen.findByRole('heading', { level: 1, name: 'Account Restricted' })).toBeDefined();
  });

  it('reads the ban again when a push says it changed while still on (an appeal decided), so the decision shows', async () => {
    signedInBanned(
      null,
      inTurn(
        reply(200, { isBanned: true, ban: aBan({ appealStatus: 'pending', appealExplanation: 'It was not me.' }) }),
        reply(200, { isBanned: true, ban: aBan({ appealStatus: 'rejected', appealExplanation: 'It was not me.' }) }),
      ),
    );
    const { socket } = renderApp('/security-center');
    expect(await screen.findByText('Pending')).toBeDefined();
    act(() => socket.serverConnects());

    act(() =>
      socket.serverPushes({ event: 'banStatusUpdated', payload: { eventId: 'e-9', userId: 'user-1', isBanned: true } }),
    );

    expect(await screen.findByText('Rejected')).toBeDefined();
  });
});
