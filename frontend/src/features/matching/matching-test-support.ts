import type { MatchFound, VideoClientToServerEvents } from '@serendip/proto';
import type { MatchingServices } from './matching-services';
import type { MediaEvent, MediaSession } from './media-session';
import type { VideoSocketConnection, VideoSocketMessage } from './video-socket';

type Emitted = { event: keyof VideoClientToServerEvents; payload: unknown };

/** The video socket, played by the test: it records what the client sends and says what the server would. */
export class FakeVideoSocket implements VideoSocketConnection {
  readonly sent: Emitted[] = [];
  currentMatch: string | null = null;
  closed = false;
  private listener: ((m: VideoSocketMessage) => void) | undefined;
  readonly id = 'socket-me';

  subscribe(listener: (m: VideoSocketMessage) => void) {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
  emit<E extends keyof VideoClientToServerEvents>(event: E, payload: Parameters<VideoClientToServerEvents[E]>[0]) {
    this.sent.push({ event, payload });
  }
  setCurrentMatch(matchId: string | null) {
    this.currentMatch = matchId;
  }
  reconnects = 0;
  reconnect() {
    this.reconnects += 1;
  }
  close() {
    this.closed = true;
  }
  /** The server says something. */
  receive(message: VideoSocketMessage) {
    this.listener?.(message);
  }
  sentOf(event: keyof VideoClientToServerEvents) {
    return this.sent.filter((e) => e.event === event).map((e) => e.payload);
  }
}

/** A media session without a camera: it records calls and lets the test raise connection events. */
export class FakeMediaSession implements MediaSession {
  calls: string[] = [];
  permission: 'granted' | 'denied' | 'failed' = 'granted';
  private listener: ((e: MediaEvent) => void) | undefined;

  async start() {
    this.calls.push('start');
    return this.permission;
  }
  setMic(on: boolean) {
    this.calls.push(`mic:${on}`);
  }
  setCamera(on: boolean) {
    this.calls.push(`camera:${on}`);
  }
  stop() {
    this.calls.push('stop');
  }
  openPeer() {
    this.calls.push('openPeer');
  }
  async createOffer() {
    this.calls.push('createOffer');
    return { type: 'offer' as const, sdp: 'v=0 offer' };
  }
  async acceptOffer() {
    this.calls.push('acceptOffer');
    return { type: 'answer' as const, sdp: 'v=0 answer' };
  }
  async acceptAnswer() {
    this.calls.push('acceptAnswer');
  }
  async addRemoteCandidate() {
    this.calls.push('addRemoteCandidate');
  }
  closePeer() {
    this.calls.push('closePeer');
  }
  subscribe(listener: (e: MediaEvent) => void) {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
  streams() {
    return { local: null, remote: null };
  }
  onStreams() {
    return () => undefined;
  }
  micLevel() {
    return 0;
  }
  raise(event: MediaEvent) {
    this.listener?.(event);
  }
}

export function fakeMatchingServices(overrides: Partial<MatchingServices> = {}) {
  const socket = new FakeVideoSocket();
  const media = new FakeMediaSession();
  const feedback: unknown[] = [];
  const refreshed: number[] = [];
  const services: MatchingServices = {
    openVideoSocket: async () => socket,
    media,
    submitFeedback: async (request) => void feedback.push(request),
    deviceType: () => 'desktop',
    networkQuality: () => 'excellent',
    chatArrivedWhileAway: () => undefined,
    refreshSession: async () => {
      refreshed.push(Date.now());
    },
    ...overrides,
  };
  return { services, socket, media, feedback, refreshed };
}

export function aMatch(overrides: Partial<MatchFound> = {}): MatchFound {
  return {
    matchId: 'match-1',
    partnerId: 'bob',
    partnerUser: {
      _id: 'bob',
      socketId: 'socket-bob',
      firstName: 'Bob',
      userAge: 31,
      gender: 'male',
      country: 'DE',
      avatar: null,
      isAdmin: false,
      deviceType: 'mobile',
    },
    role: 'offerer',
    iceServers: [{ urls: ['turn:127.0.0.1:3478'], username: 'u', credential: 'c' }],
    ...overrides,
  };
}
