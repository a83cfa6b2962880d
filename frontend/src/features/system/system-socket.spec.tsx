import { AUTH_PATHS } from '@serendip/proto';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../test-support/render-app';
import { aUser, rememberSessionInThisBrowser, reply, resetBrowser, serveFakeApi } from '../auth/auth-test-support';
import { handshakeQuery, SeenPushes } from './system-socket';

describe("the system socket's handshake query (spec 7)", () => {
  afterEach(resetBrowser);

  it("says 'mobile' up to 768 px wide and 'desktop' above, and names the user only when there is one", () => {
    expect(handshakeQuery(undefined, 375)).toEqual({ device: 'mobile' });
    expect(handshakeQuery('u-1', 768)).toEqual({ userId: 'u-1', device: 'mobile' });
    expect(handshakeQuery('u-1', 769)).toEqual({ userId: 'u-1', device: 'desktop' });
  });

  it('names the signed-in user once the session is known', async () => {
    const user = aUser();
    serveFakeApi().on('GET', AUTH_PATHS.userInfo, reply(200, user));
    rememberSessionInThisBrowser();

    const { socket } = renderApp('/settings');

    await screen.findByRole('heading', { name: 'Settings' });
    await vi.waitFor(() => expect(socket.query).toEqual({ userId: user._id, device: 'desktop' }));
  });
});

describe('repeated pushes (DESIGN.md "Fan-out: NATS": at least once)', () => {
  it('passes a push once per event id, and of an array (spec 7 newNotification) only the elements not seen', () => {
    const seen = new SeenPushes();
    expect(seen.freshPart({ eventId: 'e-1', n: 1 })).toEqual({ eventId: 'e-1', n: 1 });
    expect(seen.freshPart({ eventId: 'e-1', n: 1 })).toBeUndefined();
    expect(seen.freshPart({ n: 2 })).toBeUndefined();
    expect(seen.freshPart([{ eventId: 'e-1' }, { eventId: 'e-2' }])).toEqual([{ eventId: 'e-2' }]);
    expect(seen.freshPart([{ eventId: 'e-2' }])).toBeUndefined();
  });
});
