import { describe, expect, it } from 'vitest';
import {
  checkContract,
  checkSfuAnswer,
  checkSfuRequest,
  editAccountAnswerSchema,
  healthAnswerSchema,
  isSocketError,
  loginAnswerSchema,
  loginSessionSchema,
  parseCoordinatorRequest,
  parseUserDelivery,
  pingRequestSchema,
  refreshAnswerSchema,
  sfuLoadSchema,
  sfuReplySchema,
  SOCKET_RECONNECTION,
  type UserInfo,
  userInfoSchema,
} from './index.js';

describe('health answer contract', () => {
  it('accepts what the backend sends when up and when down', () => {
    expect(healthAnswerSchema.safeParse({ message: 'Serendip is up' }).success).toBe(true);
    expect(healthAnswerSchema.safeParse({ message: 'Serendip is down', reason: 'database unreachable' }).success).toBe(
      true,
    );
  });

  it('rejects an answer a client cannot show (no message, wrong types)', () => {
    expect(healthAnswerSchema.safeParse({}).success).toBe(false);
    expect(healthAnswerSchema.safeParse({ message: '' }).success).toBe(false);
    expect(healthAnswerSchema.safeParse({ message: 42 }).success).toBe(false);
    expect(healthAnswerSchema.safeParse('<html>proxy error</html>').success).toBe(false);
  });
});

describe('system socket contract', () => {
  it('takes a ping with a finite client time only', () => {
    expect(pingRequestSchema.safeParse({ sentAt: 1700000000000 }).success).toBe(true);
    expect(pingRequestSchema.safeParse({ sentAt: Infinity }).success).toBe(false);
    expect(pingRequestSchema.safeParse({ sentAt: '1' }).success).toBe(false);
    expect(pingRequestSchema.safeParse(null).success).toBe(false);
  });

  it('tells an error answer from a pong', () => {
    expect(isSocketError({ error: { reason: 'bad' } })).toBe(true);
    expect(isSocketError({ sentAt: 1, serverTime: 2 })).toBe(false);
  });

  it('keeps the spec 9 reconnection constants', () => {
    expect(SOCKET_RECONNECTION).toEqual({ reconnectionAttempts: 10, reconnectionDelay: 2000, timeout: 10000 });
  });
});

/** The reason a check refused `data`, or undefined when it passed. */
function refusal(check: { ok: true } | { ok: false; reason: string }): string | undefined {
  return check.ok ? undefined : check.reason;
}

describe('SFU RPC contract', () => {
  it('takes a well-formed request of each shape as it is', () => {
    const produce = { type: 'produce', roomId: 'm1', peerId: 'u1', kind: 'audio', rtpParameters: { codecs: [] } };
    expect(checkSfuRequest(produce)).toEqual({ ok: true, value: produce });
    expect(checkSfuRequest({ type: 'load' }).ok).toBe(true);
    expect(checkSfuRequest({ type: 'closeRoom', roomId: 'm1' }).ok).toBe(true);
  });

  it('refuses a malformed request, naming the field and what it should be', () => {
    expect(refusal(checkSfuRequest({ type: 'joinRoom', roomId: 'm1', peerId: '' }))).toBe('peerId: must not be empty');
    expect(refusal(checkSfuRequest({ type: 'joinRoom', roomId: 'm1' }))).toBe('peerId: is missing');
    expect(
      refusal(checkSfuRequest({ type: 'produce', roomId: 'm', peerId: 'u', kind: 'screen', rtpParameters: {} })),
    ).toBe('kind: must be one of "audio", "video"');
    // mediasoup's parameter objects are opaque, but objects: not text, not lists.
    for (const dtlsParameters of ['x', [], null]) {
      expect(
        refusal(
          checkSfuRequest({ type: 'connectTransport', roomId: 'm', peerId: 'u', transportId: 't', dtlsParameters }),
        ),
      ).toBe('dtlsParameters: must be an object');
    }
    expect(refusal(checkSfuRequest({ type: 'toString' }))).toMatch(/^type: must be one of "createRoom", /);
    // A room is made for its call's two peers, named by the backend: not fewer, not more, not one twice.
    expect(checkSfuRequest({ type: 'createRoom', roomId: 'm1', peerIds: ['u1', 'u2'] }).ok).toBe(true);
    expect(refusal(checkSfuRequest({ type: 'createRoom', roomId: 'm1' }))).toBe('peerIds: is missing');
    expect(refusal(checkSfuRequest({ type: 'createRoom', roomId: 'm1', peerIds: ['u1'] }))).toBe(
      'peerIds: must have at least 2 items',
    );
    expect(refusal(checkSfuRequest({ type: 'createRoom', roomId: 'm1', peerIds: ['u1', 'u2', 'u3'] }))).toBe(
      'peerIds: must have at most 2 items',
    );
    expect(refusal(checkSfuRequest({ type: 'createRoom', roomId: 'm1', peerIds: ['u1', 'u1'] }))).toBe(
      'peerIds: must name two different peers',
    );
    expect(refusal(checkSfuRequest(null))).toBe('the message: must be an object');
  });

  it('checks a reply, then its result against what the request answers', () => {
    expect(checkContract(sfuReplySchema, { ok: false, error: { code: 'not-found', reason: 'No such room.' } }).ok).toBe(
      true,
    );
    expect(refusal(checkContract(sfuReplySchema, { ok: false, error: { code: 'oops', reason: '' } }))).toMatch(
      /^error\.code: must be one of "not-found", /,
    );
    expect(checkSfuAnswer('produce', { producerId: 'p1' })).toEqual({ ok: true, value: { producerId: 'p1' } });
    expect(refusal(checkSfuAnswer('consume', { consumerId: 'c1', producerId: 'p1', kind: 'video' }))).toBe(
      'rtpParameters: is missing',
    );
    const transport = { id: 't', iceParameters: {}, iceCandidates: [{}, 'x'], dtlsParameters: {} };
    const join = {
      routerRtpCapabilities: {},
      sendTransport: transport,
      recvTransport: { ...transport, iceCandidates: [] },
    };
    expect(refusal(checkSfuAnswer('joinRoom', { ...join, producers: [] }))).toBe(
      'sendTransport.iceCandidates[1]: must be an object',
    );
  });

  it('takes a load announcement with its workers, and refuses one that lost its node', () => {
    const load = {
      nodeId: 'node-a',
      workers: [{ pid: 42, rooms: 1, transports: 4, producers: 2, consumers: 2, cpu: 0.12 }],
      disabledReason: null,
      at: '2026-11-25T10:00:00.000Z',
    };
    expect(checkContract(sfuLoadSchema, load).ok).toBe(true);
    expect(refusal(checkContract(sfuLoadSchema, { ...load, nodeId: undefined }))).toBe('nodeId: is missing');
    expect(refusal(checkContract(sfuLoadSchema, { ...load, workers: [{ ...load.workers[0], rooms: -1 }] }))).toBe(
      'workers[0].rooms: must be at least 0',
    );
  });
});

describe('bus messages between backend nodes', () => {
  const profile = {
    gender: 'female',
    hideIp: false,
    age: 31,
    country: 'DE',
    public: {
      firstName: 'Ada',
      userAge: 31,
      gender: 'female',
      country: 'DE',
      avatar: null,
      isAdmin: false,
      deviceType: 'desktop',
    },
  };
  const filters = { gender: null, country: null, ageRange: [18, 40] };

  /** The value, or the reason it was refused. */
  function parsed<T>(parse: (data: unknown, onInvalid: (reason: string) => void) => T | undefined, data: unknown) {
    let reason: string | undefined;
    const value = parse(data, (why) => (reason = why));
    return { value, reason };
  }

  it('passes a well-formed matching request', () => {
    const start = { kind: 'start', userId: 'u1', socketId: 's1', profile, filters };
    expect(parsed(parseCoordinatorRequest, start)).toEqual({ value: start, reason: undefined });
    const lost = { kind: 'room-lost', matchId: 'm1', sfuNode: 'node-a' };
    expect(parsed(parseCoordinatorRequest, lost)).toEqual({ value: lost, reason: undefined });
  });

  it('refuses a malformed one with the field, never with the value sent', () => {
    const start = { kind: 'start', userId: 'u1', socketId: 's1', profile: { ...profile, age: 'thirty' }, filters };
    expect(parsed(parseCoordinatorRequest, start)).toEqual({
      value: undefined,
      reason: 'profile.age: must be a number',
    });
    const leave = { kind: 'leave', userId: 'u1', socketId: 's1', reason: 'bored' };
    expect(parsed(parseCoordinatorRequest, leave).reason).toBe('reason: must be one of "leave", "skip", "timeout"');
    const { reason } = parsed(parseCoordinatorRequest, { kind: 'resume', userId: 'ada@example.com', socketId: 's1' });
    expect(reason).toBe('matchId: is missing');
    expect(reason).not.toContain('ada@example.com');
    expect(parsed(parseCoordinatorRequest, { kind: 'dance' }).reason).toMatch(/^kind: must be one of "start", /);
  });

  it('passes a well-formed delivery and refuses a malformed one', () => {
    const relay = { kind: 'relay', matchId: 'm1', from: 'u2', event: 'chatMessage', payload: { message: 'hi' } };
    expect(parsed(parseUserDelivery, relay)).toEqual({ value: relay, reason: undefined });
    expect(parsed(parseUserDelivery, { ...relay, event: 'eval' }).reason).toMatch(/^event: must be one of "offer", /);
    expect(parsed(parseUserDelivery, { kind: 'partner-left', matchId: 'm1', reason: 'rain' }).reason).toBe(
      'reason: must be one of "skip", "leave", "disconnect", "ban"',
    );
    const match = {
      matchId: 'm1',
      partnerId: 'per-match-7',
      partnerUser: { ...profile.public, _id: 'per-match-7', socketId: 'per-match-7' },
      role: 'offerer',
      iceServers: [{ urls: ['stun:stun.example:3478'] }],
      media: 'p2p',
      relayFallback: true,
    };
    const found = { kind: 'match', socketId: 's1', event: 'matchFound', match, partnerUserId: 'u2' };
    expect(parsed(parseUserDelivery, found).value).toEqual(found);
    // The gateway relays to the partner's user id, which the client's `match` never carries.
    expect(parsed(parseUserDelivery, { ...found, partnerUserId: undefined }).reason).toBe('partnerUserId: is missing');
    expect(parsed(parseUserDelivery, { ...found, match: { ...match, role: 'host' } }).reason).toBe(
      'match.role: must be one of "offerer", "answerer"',
    );
    expect(parsed(parseUserDelivery, 'matchFound').reason).toBe('the message: must be an object');
  });
});

describe('HTTP answers the client checks', () => {
  const user: UserInfo = {
    _id: 'u1',
    emailAddress: 'ada@example.com',
    emailVerified: true,
    firstName: 'Ada',
    lastName: null,
    username: 'ada',
    gender: 'female',
    userBirthDate: '1994-05-01',
    userAge: 31,
    phoneNumber: null,
    bio: null,
    avatar: null,
    country: 'DE',
    city: null,
    isAdmin: false,
    role: 'user',
    isBanned: false,
    twoFactorEnabled: false,
    hideIp: false,
    isFinishedSteps: true,
    isFirstSteps: false,
  };

  it('takes the user, and refuses a user missing a field or with a wrong one', () => {
    expect(checkContract(userInfoSchema, user).ok).toBe(true);
    // How the session began comes with user info and the sign-in answers only.
    expect(checkContract(userInfoSchema, { ...user, signedInWithCode: true }).ok).toBe(true);
    expect(refusal(checkContract(userInfoSchema, { ...user, signedInWithCode: 'yes' }))).toMatch(/^signedInWithCode/);
    const { hideIp: _dropped, ...older } = user;
    expect(refusal(checkContract(userInfoSchema, older))).toBe('hideIp: is missing');
    expect(refusal(checkContract(userInfoSchema, { ...user, gender: 'other' }))).toBe(
      'gender: must be one of "male", "female"',
    );
    expect(refusal(checkContract(userInfoSchema, '<html>502 Bad Gateway</html>'))).toBe(
      'the message: must be an object',
    );
  });

  it('takes a login that signs in or asks for the code, nothing else', () => {
    expect(loginAnswerSchema.safeParse(user).success).toBe(true);
    expect(loginAnswerSchema.safeParse({ twoFactorRequired: true, challengeId: 'c1' }).success).toBe(true);
    expect(loginAnswerSchema.safeParse({ twoFactorRequired: true, challengeId: '' }).success).toBe(false);
    expect(loginAnswerSchema.safeParse({ twoFactorRequired: false }).success).toBe(false);
  });

  it('takes a refresh (how long the new cookie lasts), sessions and an account edit as the server sends them', () => {
    expect(refreshAnswerSchema.safeParse({ expiresInSeconds: 900 }).success).toBe(true);
    expect(refusal(checkContract(refreshAnswerSchema, { accessToken: 'jwt' }))).toMatch(/^expiresInSeconds: /);
    const session = {
      _id: 's1',
      createdAt: '2026-11-25T10:00:00.000Z',
      userAgent: null,
      city: null,
      country: 'DE',
      ip: '203.0.113.5',
      isCurrent: true,
    };
    expect(loginSessionSchema.safeParse(session).success).toBe(true);
    expect(refusal(checkContract(loginSessionSchema, { ...session, isCurrent: 'yes' }))).toBe(
      'isCurrent: must be a boolean',
    );
    expect(editAccountAnswerSchema.safeParse({ user }).success).toBe(true);
    expect(
      editAccountAnswerSchema.safeParse({ user, pendingEmailAddress: 'new@example.com', endedSessions: 2 }).success,
    ).toBe(true);
    expect(refusal(checkContract(editAccountAnswerSchema, { user: { ...user, _id: '' } }))).toBe(
      'user._id: must not be empty',
    );
  });
});
