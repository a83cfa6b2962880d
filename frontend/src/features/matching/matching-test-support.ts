import type { MatchFilters, MatchFound, MediaJoinAnswer, VideoClientToServerEvents } from '@serendip/proto';
import { expect, vi } from 'vitest';
import { makeStore } from '../../app/store';
import type { ActiveCall, ActiveCallStore } from './active-call';
import type { MatchingServices } from './matching-services';
import { matchingActions as a } from './matching.slice';
import type { MediaEvent, MediaSession } from './media-session';
import type { RelaySignalling } from './relay-call';
import {
  type VideoRequestAnswer,
  type VideoRequestEvent,
  VideoRequestRefused,
  type VideoSocketConnection,
  type VideoSocketMessage,
} from './video-socket';

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
  /** What the server acks each request with; a refusal names its reason instead. */
  readonly answers: { [E in VideoRequestEvent]: VideoRequestAnswer<E> } = {
    'media:join': aJoinAnswer(),
    'media:connect': { ok: true },
    'media:produce': { producerId: 'producer-me' },
    'media:consume': { consumerId: 'consumer-1', producerId: 'producer-bob', kind: 'video', rtpParameters: {} },
    'media:resume': { ok: true },
  };
  readonly refusals: Partial<Record<VideoRequestEvent, string>> = {};
  async request<E extends VideoRequestEvent>(event: E, payload: Parameters<VideoClientToServerEvents[E]>[0]) {
    this.sent.push({ event, payload });
    const refusal = this.refusals[event];
    if (refusal) throw new VideoRequestRefused(event, refusal);
    return this.answers[event];
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
  /** Asks to join like the real session (so the socket's answer counts), without a mediasoup Device. */
  relayOpen = false;
  async joinRelay(signal: RelaySignalling) {
    this.calls.push('joinRelay');
    this.relayOpen = true;
    await signal.join();
  }
  onRelay() {
    return this.relayOpen;
  }
  addRelayProducer(producerId: string) {
    this.calls.push(`relayProducer:${producerId}`);
  }
  closePeer() {
    this.calls.push('closePeer');
    this.relayOpen = false;
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

/** This browser's record of the call in progress, in memory; the test says whether another tab holds a call. */
export class FakeActiveCallStore implements ActiveCallStore {
  readonly tabId = 'tab-me';
  record: ActiveCall | null = null;
  pageHide: (() => void) | undefined;
  /** The call another tab answers for, if any. */
  heldByAnotherTab: string | null = null;
  answering: (() => string | null) | undefined;
  load() {
    return this.record;
  }
  save(record: Omit<ActiveCall, 'tabId'>) {
    this.record = { ...record, tabId: this.tabId };
  }
  forget() {
    if (this.record?.tabId === this.tabId) this.record = null;
  }
  markLeft(at: number) {
    if (this.record?.tabId === this.tabId) this.record = { ...this.record, leftAt: at };
  }
  forgetAny() {
    this.record = null;
  }
  onPageHide(listener: () => void) {
    this.pageHide = listener;
    return () => (this.pageHide = undefined);
  }
  answerTabs(current: () => string | null) {
    this.answering = current;
    return () => (this.answering = undefined);
  }
  async heldElsewhere(matchId: string) {
    return this.heldByAnotherTab === matchId;
  }
}

export function fakeMatchingServices(overrides: Partial<MatchingServices> = {}) {
  const socket = new FakeVideoSocket();
  const media = new FakeMediaSession();
  const activeCall = new FakeActiveCallStore();
  const feedback: unknown[] = [];
  /** What the account saved, oldest first (the server's record of its preferences). */
  const saved: MatchFilters[] = [];
  const refreshed: number[] = [];
  const services: MatchingServices = {
    openVideoSocket: async () => socket,
    media,
    activeCall,
    submitFeedback: async (request) => void feedback.push(request),
    loadPreferences: async () => saved.at(-1) ?? null,
    savePreferences: async (filters) => void saved.push(filters),
    deviceType: () => 'desktop',
    networkQuality: () => 'excellent',
    chatArrivedWhileAway: () => undefined,
    refreshSession: async () => {
      refreshed.push(Date.now());
    },
    ...overrides,
  };
  return { services, socket, media, activeCall, feedback, refreshed, saved };
}

/** The app's store on fake matching services, booted as in the app (needs fake timers). */
export async function setUpMatching(options: Partial<MatchingServices> = {}) {
  const fakes = fakeMatchingServices(options);
  const store = makeStore(undefined, {
    matching: fakes.services,
    openSystemSocket: () => ({
      subscribe: () => () => undefined,
      ping: async () => ({ sentAt: 0, serverTime: 0 }),
      reconnect: () => undefined,
      renew: () => undefined,
      close: () => undefined,
    }),
    checkHealth: async () => ({ status: 'up', detail: 'Serendip is up' }),
  });
  const state = () => store.getState().matching;
  await vi.advanceTimersByTimeAsync(0);
  return { ...fakes, store, state };
}

/** Through 'Start Matching' to searching: the permission, then startMatching 500 ms later (spec 4). */
export async function untilSearching(options?: Partial<MatchingServices>) {
  const t = await setUpMatching(options);
  t.store.dispatch(a.filtersChanged({ gender: 'male', ageRange: [25, 40] }));
  t.store.dispatch(a.matchingStarted());
  await vi.advanceTimersByTimeAsync(499);
  expect(t.socket.sentOf('startMatching')).toEqual([]);
  await vi.advanceTimersByTimeAsync(1);
  return t;
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
    media: 'p2p',
    relayFallback: false,
    ...overrides,
  };
}

export function aJoinAnswer(overrides: Partial<MediaJoinAnswer> = {}): MediaJoinAnswer {
  const transport = (id: string) => ({ id, iceParameters: {}, iceCandidates: [], dtlsParameters: {} });
  return {
    routerRtpCapabilities: { codecs: [] },
    sendTransport: transport('send-1'),
    recvTransport: transport('recv-1'),
    producers: [],
    ...overrides,
  };
}
