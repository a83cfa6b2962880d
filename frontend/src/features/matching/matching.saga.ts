import { CHAT_TIMING, MATCH_TIMING, type MatchFilters, type MatchFound, type VideoErrorCode } from '@serendip/proto';
import { buffers, type EventChannel, eventChannel, type Task } from 'redux-saga';
import {
  all,
  call,
  cancel,
  delay,
  fork,
  put,
  race,
  select,
  take,
  takeEvery,
  takeLatest,
  takeLeading,
} from 'redux-saga/effects';
import { logError } from '../../shared/log';
import { type SessionState, sessionEndedElsewhere, sessionExpired, signedOut } from '../auth/session.slice';
import { notify } from '../../shared/toasts/notify';
import { ACTIVE_CALL_TIMING, RESUME_TEXTS, resumeVerdict, tooOld } from './active-call';
import type { MatchingServices } from './matching-services';
import { CONNECTION_MESSAGES } from './matching-messages';
import { matchingActions as a, type MatchingState } from './matching.slice';
import {
  connectionTimeout,
  connectionTrouble,
  joinRelay,
  type MediaRoute,
  p2pFallbackTimeout,
  routeOf,
} from './media-path';
import type { MediaEvent } from './media-session';
import { saveToggle } from './media-preferences';
import { forgetFilters } from './preferences';
import { relaySignalling, type VideoSocketConnection, type VideoSocketMessage } from './video-socket';

const matching = (state: { matching: MatchingState }) => state.matching;

/** How long 'Your partner skipped' (and the like) shows over the video before the feedback card. */
export const CALL_NOTICE_MS = 2_000;

/** spec 4 "Match flow": from 'Start Matching' to leaving, one call at a time; and feedback on the side. */
export function* matchingSaga(services: MatchingServices) {
  yield takeLeading(a.preferencesRequested, loadPreferences, services);
  yield takeLeading([a.matchingStarted.type, a.callResuming.type], session, services);
  yield takeLeading(a.preferencesLoaded, resumeLeftCall, services);
  yield takeLatest(a.previewRequested, preview, services);
  yield takeEvery(a.mediaToggled, previewToggle, services);
  yield takeEvery(a.feedbackSubmitted, submitFeedback, services);
  yield takeEvery(signedOut, () => forgetFilters());
  // The next person on this browser must not find the last one's call, or its chat: however the session ended.
  yield takeEvery([signedOut.type, sessionExpired.type, sessionEndedElsewhere.type], () =>
    services.activeCall.forgetAny(),
  );
  // A tab closed for good leaves its record (a stranger's chat) behind: gone at the next page load, whichever page.
  const left = services.activeCall.load();
  if (left && tooOld(left, Date.now())) services.activeCall.forgetAny();
}

function* session(services: MatchingServices, action: { type: string; payload?: unknown }) {
  const { media } = services;
  // 'Start Matching', or a new page going back to the call this browser was in (active-call.ts).
  const resuming = a.callResuming.match(action) ? action.payload.matchId : null;
  const state: MatchingState = yield select(matching);
  // Kept for the next visit (the ready screen); the search does not wait for it.
  yield fork(savePreferences, services, state.filters);
  // The camera and the socket start together: both take a moment, and the first match waits on both.
  const [permission, opened]: [Awaited<ReturnType<typeof media.start>>, VideoSocketConnection | Error] = yield all([
    call([media, media.start], state.media),
    call(openSocket, services, resuming),
  ]);
  if (permission !== 'granted') {
    if (!(opened instanceof Error)) opened.close();
    yield put(a.permissionResolved('denied'));
    if (permission === 'failed') notify.error(CONNECTION_MESSAGES.mediaFailed);
    yield take(a.leaveRequested);
    media.stop();
    yield put(a.matchingLeft());
    return;
  }
  yield put(a.permissionResolved('granted'));
  if (opened instanceof Error) {
    logError('The video connection could not be opened', opened);
    notify.error(CONNECTION_MESSAGES.establishFailed);
    media.stop();
    yield put(a.matchingLeft());
    return;
  }
  const socket = opened;
  // NOTE: buffered: ICE candidates keep coming while an offer is being answered, and none may be lost.
  const fromSocket: EventChannel<VideoSocketMessage> = eventChannel(
    (emit) => socket.subscribe(emit),
    buffers.expanding(64),
  );
  const fromMedia: EventChannel<MediaEvent> = eventChannel((emit) => media.subscribe(emit), buffers.expanding(64));
  const call_ = new Call(services, socket);
  const quality: Task = yield fork(reportNetworkQuality, services, socket);
  const keeper: Task = yield fork(keepActiveCall, services);
  try {
    if (resuming) yield* call_.resume(resuming);
    else {
      // Searching from the click on: the spec's 500 ms pause is ours, not a moment for 'Find Match' to flash up.
      yield put(a.searchStarted());
      // spec 4: startMatching goes 500 ms after the permission; a leave meanwhile ends the session before it goes.
      const { left } = yield race({ waited: delay(MATCH_TIMING.startDelayMs), left: take(a.leaveRequested) });
      if (left) return;
      yield* call_.search();
    }
    for (;;) {
      const { message, event, action } = yield race({
        message: take(fromSocket),
        event: take(fromMedia),
        action: take([
          a.skipRequested,
          a.leaveRequested,
          a.stopRequested,
          a.findMatchRequested,
          a.chatSent,
          a.chatTyped,
          a.mediaToggled,
          a.connectionTimedOut,
          a.p2pFallbackDue,
          a.relayJoinFailed,
          a.partnerVideoFailed,
          a.reportDialogToggled,
          a.reportFrameTaken,
        ]),
      });
      if (message) yield* call_.onSocket(message as VideoSocketMessage);
      else if (event) yield* call_.onMedia(event as MediaEvent);
      else if (a.leaveRequested.match(action)) {
        yield* call_.end(false);
        break;
      } else yield* call_.onAction(action);
      if (call_.over) break;
    }
  } finally {
    yield cancel(quality);
    yield cancel(keeper);
    call_.forgetActiveCall();
    yield* call_.cancelTimers();
    yield* call_.cancelNotices();
    fromSocket.close();
    fromMedia.close();
    socket.close();
    media.stop();
    yield put(a.matchingLeft());
  }
}

/** One user's matching session: what to do with each socket message, media event and click. */
class Call {
  over = false;
  /** The connection timeout, the auto-mode fallback timer and a relay join under way, for the current call. */
  private timer: Task | null = null;
  private fallbackTimer: Task | null = null;
  private joining: Task | null = null;
  private route: MediaRoute | null = null;
  /** The socket dropped since it last connected. */
  private dropped = false;
  /** The session was renewed after a refusal, since the last connection. */
  private renewed = false;
  private wasConnected = false;
  /** The call ended while the report dialog was open: the next search starts when it closes (spec 4). */
  private nextMatchHeld = false;
  /** The call this new page asked the server to give back (its socket's handshake named it), until it answers. */
  private resuming: string | null = null;
  /** The current call as the server gave it (its partner, role and ICE servers): a media restart needs them. */
  private match: MatchFound | null = null;
  /** Chat lines sent while the partner's socket was away (they reached nobody), to send again when they are back. */
  private sentWhileAway: { message: string; id: string }[] = [];
  private linesSent = 0;
  /** The ids of the partner's lines in this call: a line sent again shows once. */
  private linesHeard = new Set<string>();
  /** Says why the last call ended for a moment, then offers its feedback card. */
  private notice: Task | null = null;
  /** Hides the partner's typing indicator once they have not typed for a while. */
  private typingShown: Task | null = null;
  /** When we last told the partner we are typing (epoch ms). */
  private typingSentAt = -Infinity;

  constructor(
    private readonly services: MatchingServices,
    private readonly socket: VideoSocketConnection,
  ) {}

  *search() {
    this.nextMatchHeld = false;
    yield* this.cancelTimers();
    const { filters }: MatchingState = yield select(matching);
    this.socket.setCurrentMatch(null);
    this.socket.emit('startMatching', { filters, deviceType: this.services.deviceType() });
    yield put(a.searchStarted());
  }

  /**
   * Leaves the call (a skip searches again at once; spec 4: the local stream stays). `failed`: the connection never
   * came up, which the server records as such, not as a skip that would keep the two apart.
   */
  *end(next: boolean, failed = false) {
    const state: MatchingState = yield select(matching);
    this.socket.emit('leaveVideoRoom', failed ? { next, failed } : { next });
    yield* this.closeCall(state);
    yield put(a.ownChatClosed());
    if (next) yield* this.searchUnlessReporting();
  }

  /** spec 4: the next match waits while the report dialog is open, and starts when it closes. */
  private *searchUnlessReporting() {
    const { reportDialogOpen }: MatchingState = yield select(matching);
    if (reportDialogOpen) this.nextMatchHeld = true;
    else yield* this.search();
  }

  *onAction(action: { type: string; payload?: unknown }) {
    const state: MatchingState = yield select(matching);
    if (a.skipRequested.match(action) || a.partnerVideoFailed.match(action)) {
      if (state.partner) yield* this.end(true);
    } else if (a.connectionTimedOut.match(action) && action.payload === this.resuming) {
      this.resumeFailed();
    } else if (a.connectionTimedOut.match(action)) {
      if (action.payload === state.matchId && state.status === 'connecting') yield* this.tryAnother();
    } else if (a.p2pFallbackDue.match(action)) {
      if (action.payload === state.matchId && state.status === 'connecting' && state.partner) {
        yield* this.onTrouble(state.partner._id, 'not connected in time');
      }
    } else if (a.relayJoinFailed.match(action)) {
      // A refused join (or a setup that broke) before the relay came up: the connection failed.
      if (action.payload === state.matchId && state.status === 'connecting' && this.route?.path === 'relay') {
        yield* this.tryAnother();
      }
    } else if (a.reportFrameTaken.match(action)) {
      // The server moves a peer-to-peer call to the SFU, so its own snapshot of the reported side exists.
      if (state.partner && state.reportDialogOpen) this.socket.emit('report:opened', { target: state.partner._id });
    } else if (a.reportDialogToggled.match(action)) {
      if (!action.payload && this.nextMatchHeld) yield* this.search();
    } else if (a.stopRequested.match(action)) {
      this.socket.emit('leaveVideoRoom', { next: false });
      yield* this.closeCall(state);
      yield put(a.ownChatClosed());
      yield put(a.searchStopped());
    } else if (a.findMatchRequested.match(action)) {
      if (state.status === 'idle') yield* this.search();
    } else if (a.chatSent.match(action)) {
      const text = action.payload.trim();
      if (!state.partner || state.status !== 'connected' || !text) return;
      const line = { message: text, id: `${Date.now().toString(36)}-${(this.linesSent += 1)}` };
      this.socket.emit('sendChatMessage', { target: state.partner._id, ...line });
      // The partner's socket is away: what may reach nobody now goes again once they are back (same id: shown once).
      if (state.partnerReconnecting) this.sentWhileAway.push(line);
      yield put(a.chatAppended({ sender: 'me', text, at: Date.now() }));
      // The next keystroke is a new message being typed: the partner hears it at once.
      this.typingSentAt = -Infinity;
    } else if (a.chatTyped.match(action)) {
      if (!state.partner || state.status !== 'connected') return;
      const now = Date.now();
      if (now - this.typingSentAt < CHAT_TIMING.typingEveryMs) return;
      this.typingSentAt = now;
      this.socket.emit('typing', { target: state.partner._id });
    } else if (a.mediaToggled.match(action)) {
      const on = state.media[action.payload];
      saveToggle(action.payload, on);
      if (action.payload === 'mic') this.services.media.setMic(on);
      else this.services.media.setCamera(on);
      if (state.partner) {
        this.socket.emit(action.payload === 'mic' ? 'mic-toggle' : 'camera-toggle', {
          target: state.partner._id,
          enabled: on,
        });
      }
    }
  }

  *onSocket(message: VideoSocketMessage) {
    const state: MatchingState = yield select(matching);
    const fromPartner = (from: string) => state.partner?._id === from;
    const { media } = this.services;
    switch (message.type) {
      case 'matchFound':
        // A pairing made just before a Stop (or a leave) arrives after it: decline it, so the partner moves on.
        if (state.status !== 'searching') {
          this.socket.emit('leaveVideoRoom', { next: false });
          return;
        }
        yield* this.start(message.payload);
        return;
      case 'matchResumed':
        if (message.payload.matchId === this.resuming) {
          // A new page: the call's media starts over (the server made the partner the offerer).
          this.resuming = null;
          yield* this.cancelTimers();
          yield* this.start(message.payload, true);
          return;
        }
        // Our socket blipped and the server kept the call. The media never went with the socket (the SFU knows us by
        // user), so a relay already open stays; only a move to the SFU missed during the blip is joined now.
        if (message.payload.matchId !== state.matchId) return;
        if (this.match?.matchId === message.payload.matchId && this.match.partnerId !== message.payload.partnerId) {
          this.match = { ...this.match, partnerId: message.payload.partnerId };
          yield put(a.partnerRenamed(message.payload.partnerId));
        }
        if (message.payload.media === 'relay' && !media.onRelay()) yield* this.switchToRelay(message.payload.matchId);
        return;
      case 'offer':
        if (!fromPartner(message.payload.from)) return;
        try {
          const answer: Awaited<ReturnType<typeof media.acceptOffer>> = yield call(
            [media, media.acceptOffer],
            message.payload.description,
          );
          this.socket.emit('answer', { target: message.payload.from, description: answer });
        } catch (error) {
          logError(CONNECTION_MESSAGES.offerFailed, error);
          yield put(a.connectionMessage(CONNECTION_MESSAGES.offerFailed));
          yield* this.tryAnother();
        }
        return;
      case 'answer':
        if (!fromPartner(message.payload.from)) return;
        try {
          yield call([media, media.acceptAnswer], message.payload.description);
        } catch (error) {
          logError(CONNECTION_MESSAGES.answerFailed, error);
          yield put(a.connectionMessage(CONNECTION_MESSAGES.answerFailed));
          yield* this.tryAnother();
        }
        return;
      case 'ice-candidate':
        if (!fromPartner(message.payload.from)) return;
        try {
          yield call([media, media.addRemoteCandidate], message.payload.candidate);
        } catch (error) {
          logError('A remote ICE candidate was refused', error);
        }
        return;
      case 'chatMessage': {
        if (!fromPartner(message.payload.from)) return;
        // A line the partner sent again after we were away: shown once.
        const { id } = message.payload;
        if (id !== undefined && this.linesHeard.has(id)) return;
        if (id !== undefined) this.linesHeard.add(id);
        // The time it reached us: the partner's clock is not ours to trust.
        yield put(a.chatAppended({ sender: 'partner', text: message.payload.message, at: Date.now() }));
        this.services.chatArrivedWhileAway();
        return;
      }
      case 'typing':
        if (!fromPartner(message.payload.from)) return;
        if (this.typingShown) yield cancel(this.typingShown);
        yield put(a.partnerTypingChanged(true));
        this.typingShown = yield fork(hideTypingLater);
        return;
      case 'partnerReconnecting':
      case 'partnerReconnected':
        if (message.payload.matchId === state.matchId) {
          yield put(a.partnerReconnectingChanged(message.type === 'partnerReconnecting'));
          if (message.type === 'partnerReconnected') {
            this.resendWhileAway(message.payload.matchId);
            if (message.payload.mediaRestart) yield* this.restartMedia();
          } else this.sentWhileAway = [];
        }
        return;
      case 'mic-toggle':
        if (fromPartner(message.payload.from)) yield put(a.partnerMicChanged(message.payload.enabled));
        return;
      case 'camera-toggle':
        if (fromPartner(message.payload.from)) yield put(a.partnerCameraChanged(message.payload.enabled));
        return;
      case 'speaking-status':
        if (fromPartner(message.payload.from)) yield put(a.partnerSpeakingChanged(message.payload.speaking));
        return;
      case 'partner-network-quality':
        if (fromPartner(message.payload.from)) yield put(a.partnerQualityChanged(message.payload.quality));
        return;
      case 'rtc-fully-connected':
        return;
      case 'media:path':
        // The call moved to the SFU (after a `media:fallback`, ours or the partner's).
        if (message.payload.matchId !== state.matchId || message.payload.path !== 'relay') return;
        if (this.route?.path !== 'relay') yield* this.switchToRelay(message.payload.matchId);
        return;
      case 'media:reconnect':
        // The SFU lost the call's room (its worker died) and made a new one.
        if (message.payload.matchId === state.matchId) yield* this.switchToRelay(message.payload.matchId);
        return;
      case 'media:producer':
        if (fromPartner(message.payload.from) && this.route?.path === 'relay') {
          media.addRelayProducer(message.payload.producerId);
        }
        return;
      case 'partnerDisconnected': {
        // The call this page asked for is over (the server's 'call-over'): the usual start instead.
        if (message.payload.matchId === this.resuming) return this.resumeFailed();
        if (message.payload.matchId !== state.matchId) return;
        const connected = this.wasConnected;
        // The feedback card waits until the notice has been read.
        yield* this.closeCall(state, false);
        yield put(a.partnerLeft({ reason: message.payload.reason, at: Date.now() }));
        yield* this.searchUnlessReporting();
        yield* this.cancelNotices();
        this.notice = yield fork(noticeThenFeedback, state, connected);
        return;
      }
      case 'videoError':
        if (message.payload.code === 'replaced') {
          notify.error(message.payload.reason);
          this.over = true;
          return;
        }
        // A ban's own screen says it (a toast over it would only repeat it).
        if (message.payload.code !== 'not-in-call' && message.payload.code !== 'banned') {
          notify.error(message.payload.reason);
        }
        if (message.payload.code === 'unavailable') {
          // The search or call is over on the server: back to 'Find Match' rather than searching forever.
          yield* this.closeCall(state);
          yield put(a.searchStopped());
        } else if (STOPPING.has(message.payload.code)) {
          // Banned, signed out or unfinished since the handshake: the server closes the socket for good.
          this.over = true;
          if (message.payload.code === 'banned') yield put(a.restrictionNoticed());
        }
        return;
      case 'connected':
        this.renewed = false;
        // Back after a drop: a search the server dropped with the old socket is asked for again. (A call comes back
        // by itself: the socket names it when it reconnects.)
        if (this.dropped && state.status === 'searching') yield* this.search();
        this.dropped = false;
        return;
      case 'disconnected':
        this.dropped = true;
        return;
      case 'refused':
        // The access token outlived (15 min) a long session: renew it once, then the socket tries again.
        if (message.refusal?.code === 'unauthenticated' && !this.renewed) {
          this.renewed = true;
          try {
            yield call(this.services.refreshSession);
            this.socket.reconnect();
            return;
          } catch (error) {
            logError('The session could not be renewed for the video socket', error);
          }
        }
        if (message.refusal) {
          notify.error(message.refusal.reason);
          this.over = true;
        }
        return;
      default: {
        const unknown: never = message;
        throw new Error(`unhandled video socket message ${JSON.stringify(unknown)}`);
      }
    }
  }

  *onMedia(event: MediaEvent) {
    const state: MatchingState = yield select(matching);
    if (!state.partner) return;
    const target = state.partner._id;
    switch (event.type) {
      case 'ice-candidate':
        this.socket.emit('ice-candidate', {
          target,
          candidate: { ...event.candidate, candidate: event.candidate.candidate ?? '' },
        });
        return;
      case 'speaking':
        this.socket.emit('speaking-status', { target, speaking: event.speaking });
        return;
      case 'connection-state':
        if (event.state === 'connected') {
          // The join goes on (our second track may still be on its way); its failure is still heard.
          yield* this.cancelTimers(true);
          this.wasConnected = true;
          yield put(a.peerConnected());
          this.socket.emit('rtc-connected', { target });
          // Tell the partner how our camera and microphone are set from the start.
          this.socket.emit('mic-toggle', { target, enabled: state.media.mic });
          this.socket.emit('camera-toggle', { target, enabled: state.media.camera });
        } else if (event.state === 'failed' || event.state === 'disconnected') {
          // The partner's socket is away too: the server ends the call if they are not back in time.
          if (state.partnerReconnecting) return;
          yield* this.onTrouble(target, event.state);
        }
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled media event ${JSON.stringify(unknown)}`);
      }
    }
  }

  /** Stops the current call's timers and, unless it is up, any relay join under way. */
  *cancelTimers(keepJoining = false) {
    if (this.timer) yield cancel(this.timer);
    this.timer = null;
    yield* this.cancelFallbackTimer();
    if (keepJoining) return;
    if (this.joining) yield cancel(this.joining);
    this.joining = null;
  }

  /** Stops the last call's notice (and its feedback offer) and the typing indicator's timer. */
  *cancelNotices() {
    if (this.notice) yield cancel(this.notice);
    this.notice = null;
    if (this.typingShown) yield cancel(this.typingShown);
    this.typingShown = null;
  }

  private *cancelFallbackTimer() {
    if (this.fallbackTimer) yield cancel(this.fallbackTimer);
    this.fallbackTimer = null;
  }

  private *start(match: MatchFound, resumed = false) {
    const { media } = this.services;
    this.wasConnected = false;
    this.match = match;
    this.route = routeOf(match);
    this.socket.setCurrentMatch(match.matchId);
    yield put(resumed ? a.matchResumed(match) : a.matchFound(match));
    if (match.media === 'relay') {
      yield* this.joinRelay(match.matchId);
      return;
    }
    try {
      media.openPeer(match.iceServers);
      if (match.role === 'offerer') {
        const offer: Awaited<ReturnType<typeof media.createOffer>> = yield call([media, media.createOffer]);
        this.socket.emit('offer', { target: match.partnerId, description: offer });
      }
    } catch (error) {
      logError(CONNECTION_MESSAGES.setupFailed, error);
      yield put(a.connectionMessage(CONNECTION_MESSAGES.setupFailed));
      yield* this.tryAnother();
      return;
    }
    this.timer = yield fork(connectionTimeout, match.matchId);
    if (this.route.relayFallback) this.fallbackTimer = yield fork(p2pFallbackTimeout, match.matchId);
  }

  /**
   * A new page asks for the call this browser was in (its socket's handshake named it): the server answers
   * matchResumed, or that the call is over. No answer within the connection timeout counts as over.
   */
  *resume(matchId: string) {
    this.resuming = matchId;
    this.timer = yield fork(connectionTimeout, matchId);
  }

  /** The call is over, or the server never gave it back: the usual start (the ready screen), with a short notice. */
  private resumeFailed() {
    this.resuming = null;
    this.services.activeCall.forgetAny();
    notify.info(RESUME_TEXTS.callOver);
    this.over = true;
  }

  /** The partner is back: the lines they missed go again (our chat shows them once already). */
  private resendWhileAway(matchId: string) {
    const target = this.match?.matchId === matchId ? this.match.partnerId : null;
    if (target) for (const line of this.sentWhileAway) this.socket.emit('sendChatMessage', { target, ...line });
    this.sentWhileAway = [];
  }

  /** The session ends: its call's record goes too (the one this page was still asking for, whoever wrote it). */
  forgetActiveCall() {
    if (this.resuming) this.services.activeCall.forgetAny();
    else this.services.activeCall.forget();
  }

  /**
   * The partner came back on a new page (a reload): their media went with the old one. Peer to peer, this side offers
   * a new connection (the server made it the offerer), under the usual connection timeout; relayed, their new tracks
   * come as media:producer and take the old ones' place, so only our switches are told again.
   */
  private *restartMedia() {
    const { match } = this;
    const { media } = this.services;
    if (!match) return;
    if (this.route?.path === 'relay') {
      const state: MatchingState = yield select(matching);
      this.socket.emit('mic-toggle', { target: match.partnerId, enabled: state.media.mic });
      this.socket.emit('camera-toggle', { target: match.partnerId, enabled: state.media.camera });
      return;
    }
    yield* this.cancelTimers();
    this.wasConnected = false;
    this.route = routeOf(match);
    yield put(a.mediaRejoining());
    try {
      media.openPeer(match.iceServers);
      const offer: Awaited<ReturnType<typeof media.createOffer>> = yield call([media, media.createOffer]);
      this.socket.emit('offer', { target: match.partnerId, description: offer });
    } catch (error) {
      logError(CONNECTION_MESSAGES.setupFailed, error);
      yield put(a.connectionMessage(CONNECTION_MESSAGES.setupFailed));
      yield* this.tryAnother();
      return;
    }
    this.timer = yield fork(connectionTimeout, match.matchId);
    if (this.route.relayFallback) this.fallbackTimer = yield fork(p2pFallbackTimeout, match.matchId);
  }

  /** A connection that failed, dropped or is late: another match, or (auto mode) the SFU first. */
  private *onTrouble(partnerId: string, why: string) {
    const route = this.route;
    const next = route ? connectionTrouble(route, this.wasConnected) : 'try-another';
    switch (next) {
      case 'ask-relay':
        route!.fallbackAsked = true;
        yield* this.cancelFallbackTimer();
        this.socket.emit('media:fallback', { target: partnerId });
        return;
      case 'keep-waiting':
        return;
      case 'try-another':
        // spec 4: a connection state of disconnected or failed triggers a skip.
        logError(CONNECTION_MESSAGES.rtcFailed, why);
        yield* this.tryAnother();
        return;
      default: {
        const unknown: never = next;
        throw new Error(`unhandled connection trouble ${String(unknown)}`);
      }
    }
  }

  /** The call's media starts over through the SFU: the peer connection (or the lost room) is closed first. */
  private *switchToRelay(matchId: string) {
    this.services.media.closePeer();
    yield put(a.mediaRejoining());
    yield* this.joinRelay(matchId);
  }

  private *joinRelay(matchId: string) {
    yield* this.cancelTimers();
    this.route = { path: 'relay', relayFallback: false, fallbackAsked: this.route?.fallbackAsked ?? false };
    const { media } = this.services;
    this.joining = yield fork(joinRelay, media, relaySignalling(this.socket), matchId);
    // The connection timeout counts from the switch, so a relay that fails too still moves on.
    this.timer = yield fork(connectionTimeout, matchId);
  }

  /** spec 4: a peer failure or the 10 s timeout skips to another match, saying so. */
  private *tryAnother() {
    notify.error(CONNECTION_MESSAGES.tryingAnother);
    yield* this.end(true, true);
  }

  private *closeCall(state: MatchingState, offerFeedback = true) {
    this.nextMatchHeld = false;
    this.sentWhileAway = [];
    this.linesHeard.clear();
    yield* this.cancelTimers();
    this.route = null;
    this.typingSentAt = -Infinity;
    this.services.media.closePeer();
    this.socket.setCurrentMatch(null);
    if (offerFeedback && this.wasConnected && state.matchId && state.partner) {
      yield put(a.feedbackOffered({ matchId: state.matchId, partnerName: state.partner.firstName }));
    }
    this.wasConnected = false;
  }
}

/**
 * Refusals that end the matching session: the server closes the socket after the first three; an unconfirmed e-mail
 * address goes back to the wizard, which says what to do.
 */
const STOPPING = new Set<VideoErrorCode>(['banned', 'unauthenticated', 'signup-unfinished', 'email-unconfirmed']);

/** The socket, or the error that kept it from opening (so the camera's answer is still heard). */
async function openSocket(services: MatchingServices, resuming: string | null): Promise<VideoSocketConnection | Error> {
  try {
    return await services.openVideoSocket(resuming ? { matchId: resuming } : undefined);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/** The partner's typing indicator goes once they have not typed for a while. */
function* hideTypingLater() {
  yield delay(CHAT_TIMING.typingShownMs);
  yield put(a.partnerTypingChanged(false));
}

/** 'Your partner skipped' (or left, or the connection was lost) for a moment; then the call's feedback card. */
function* noticeThenFeedback(ended: MatchingState, connected: boolean) {
  yield delay(CALL_NOTICE_MS);
  if (!ended.matchId) return;
  yield put(a.callNoticeCleared(ended.matchId));
  if (connected && ended.partner) {
    yield put(a.feedbackOffered({ matchId: ended.matchId, partnerName: ended.partner.firstName }));
  }
}

/**
 * While in a call, this tab keeps its record (active-call.ts) up to date, so that a reload or a new tab within the
 * grace period goes back to it; it notes when the page goes away, and answers other tabs asking about its call.
 */
function* keepActiveCall(services: MatchingServices) {
  const { activeCall } = services;
  const userId: string | undefined = yield select(currentUserId);
  if (!userId) return;
  let held: string | null = null;
  const stopAnswering = activeCall.answerTabs(() => held);
  const stopWatching = activeCall.onPageHide(() => {
    if (held) activeCall.markLeft(Date.now());
  });
  try {
    for (;;) {
      const { matchId, partner, chat, chatWith, chatOpen }: MatchingState = yield select(matching);
      if (matchId && partner) {
        held = matchId;
        activeCall.save({ userId, matchId, chat, chatWith, chatOpen, heartbeatAt: Date.now() });
      } else if (held) {
        held = null;
        activeCall.forget();
      }
      yield race({
        beat: delay(ACTIVE_CALL_TIMING.heartbeatMs),
        changed: take([
          a.matchFound,
          a.matchResumed,
          a.chatAppended,
          a.chatToggled,
          a.partnerLeft,
          a.searchStarted,
          a.searchStopped,
        ]),
      });
    }
  } finally {
    stopAnswering();
    stopWatching();
  }
}

/**
 * A page load (a reload, a new tab) finds the record of a call this user was in: within the grace period, and with no
 * other tab still in it, the page goes straight back to it. Once the preferences are known, so the ready screen after
 * the call has them.
 */
function* resumeLeftCall(services: MatchingServices) {
  const { activeCall } = services;
  const userId: string | undefined = yield select(currentUserId);
  const record = activeCall.load();
  if (!record) return;
  // A tab closed for good leaves its record behind: its chat is not kept any longer than a resume could use it.
  if (tooOld(record, Date.now())) return activeCall.forgetAny();
  if (!userId) return;
  let verdict = resumeVerdict(record, userId, Date.now());
  if (verdict === 'ask') {
    const held: boolean = yield call([activeCall, activeCall.heldElsewhere], record.matchId);
    verdict = held ? 'held' : 'resume';
  }
  const { view }: MatchingState = yield select(matching);
  // A start meanwhile (or a session still on) keeps its own course.
  if (verdict !== 'resume' || view === 'call') return;
  const { matchId, chat, chatWith, chatOpen = false } = record;
  yield put(a.callResuming({ matchId, chat, chatWith, chatOpen }));
}

const currentUserId = (state: { session: SessionState }) => state.session.user?._id;

/** spec 9: every second, how our downlink is, to the partner. */
function* reportNetworkQuality(services: MatchingServices, socket: VideoSocketConnection) {
  for (;;) {
    yield delay(MATCH_TIMING.networkQualityEveryMs);
    const { partner, status }: MatchingState = yield select(matching);
    if (partner && status === 'connected') {
      socket.emit('network-quality', { target: partner._id, quality: services.networkQuality() });
    }
  }
}

/** The ready screen's look at oneself: the camera on until a call starts (it keeps it) or the screen goes. */
function* preview(services: MatchingServices) {
  const { view, media: toggles }: MatchingState = yield select(matching);
  if (view === 'call') return;
  const permission: Awaited<ReturnType<MatchingServices['media']['start']>> = yield call(
    [services.media, services.media.start],
    toggles,
  );
  const now: MatchingState = yield select(matching);
  // A start meanwhile has its own answer from the same camera.
  if (now.view !== 'call') {
    if (permission === 'failed') logError('The camera could not be started for the preview', new Error(permission));
    yield put(a.permissionResolved(permission === 'granted' ? 'granted' : 'denied'));
  }
  const { ended } = yield race({ ended: take(a.previewEnded), started: take(a.matchingStarted) });
  const after: MatchingState = yield select(matching);
  if (ended && after.view !== 'call') {
    services.media.stop();
    yield put(a.permissionResolved('idle'));
  }
}

/** The preview's switches; in a call the session applies them (and tells the partner). */
function* previewToggle(services: MatchingServices, action: ReturnType<typeof a.mediaToggled>) {
  const state: MatchingState = yield select(matching);
  if (state.view === 'call') return;
  const on = state.media[action.payload];
  saveToggle(action.payload, on);
  if (action.payload === 'mic') services.media.setMic(on);
  else services.media.setCamera(on);
}

/** Once per page load: the ready screen for an account that has saved preferences, else the wizard. */
function* loadPreferences(services: MatchingServices) {
  const { view }: MatchingState = yield select(matching);
  if (view !== 'loading') return;
  try {
    const filters: MatchFilters | null = yield call(services.loadPreferences);
    yield put(a.preferencesLoaded(filters));
  } catch (error) {
    // The wizard with the defaults still works: the choices are saved again at the next start.
    logError('The saved match preferences could not be read', error);
    yield put(a.preferencesLoaded(null));
  }
}

function* savePreferences(services: MatchingServices, filters: MatchFilters) {
  try {
    yield call(services.savePreferences, filters);
  } catch (error) {
    logError('The match preferences were not saved', error);
  }
}

function* submitFeedback(services: MatchingServices, action: ReturnType<typeof a.feedbackSubmitted>) {
  const { feedback }: MatchingState = yield select(matching);
  if (!feedback) return;
  try {
    yield call(services.submitFeedback, {
      matchId: feedback.matchId,
      rating: action.payload.rating as 1 | 2 | 3 | 4 | 5,
      additionalInformation: action.payload.additionalInformation,
      type: 'videomatch',
    });
  } catch (error) {
    logError('Feedback was not sent', error); // spec 8: feedback failures are only logged
  }
  yield put(a.feedbackThanked());
  yield delay(MATCH_TIMING.feedbackThanksMs);
  yield put(a.feedbackClosed(feedback.matchId));
}
