import { CHAT_TIMING, MATCH_TIMING, type MatchFound, type VideoErrorCode } from '@serendip/proto';
import { buffers, type EventChannel, eventChannel, type Task } from 'redux-saga';
import { all, call, cancel, delay, fork, put, race, select, take, takeEvery, takeLeading } from 'redux-saga/effects';
import { logError } from '../../shared/log';
import { signedOut } from '../auth/session.slice';
import { notify } from '../../shared/toasts/notify';
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
import { forgetFilters, saveFilters } from './preferences';
import { relaySignalling, type VideoSocketConnection, type VideoSocketMessage } from './video-socket';

const matching = (state: { matching: MatchingState }) => state.matching;

/** How long 'Your partner skipped' (and the like) shows over the video before the feedback card. */
export const CALL_NOTICE_MS = 2_000;

/** spec 4 "Match flow": from 'Start Matching' to leaving, one call at a time; and feedback on the side. */
export function* matchingSaga(services: MatchingServices) {
  yield takeLeading(a.matchingStarted, session, services);
  yield takeEvery(a.feedbackSubmitted, submitFeedback, services);
  yield takeEvery(signedOut, () => forgetFilters());
}

function* session(services: MatchingServices) {
  const { media } = services;
  const state: MatchingState = yield select(matching);
  saveFilters(state.filters);
  // The camera and the socket start together: both take a moment, and the first match waits on both.
  const [permission, opened]: [Awaited<ReturnType<typeof media.start>>, VideoSocketConnection | Error] = yield all([
    call([media, media.start], state.media),
    call(openSocket, services),
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
  try {
    // Searching from the click on: the spec's 500 ms pause is ours, not a moment for 'Find Match' to flash up.
    yield put(a.searchStarted());
    // spec 4: startMatching goes 500 ms after the permission; a leave meanwhile ends the session before it goes.
    const { left } = yield race({ waited: delay(MATCH_TIMING.startDelayMs), left: take(a.leaveRequested) });
    if (left) return;
    yield* call_.search();
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
      this.socket.emit('sendChatMessage', { target: state.partner._id, message: text });
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
        // Our socket blipped and the server kept the call. The media never went with the socket (the SFU knows us by
        // user), so a relay already open stays; only a move to the SFU missed during the blip is joined now.
        if (message.payload.matchId === state.matchId && message.payload.media === 'relay' && !media.onRelay()) {
          yield* this.switchToRelay(message.payload.matchId);
        }
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
      case 'chatMessage':
        if (!fromPartner(message.payload.from)) return;
        // The time it reached us: the partner's clock is not ours to trust.
        yield put(a.chatAppended({ sender: 'partner', text: message.payload.message, at: Date.now() }));
        this.services.chatArrivedWhileAway();
        return;
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

  private *start(match: MatchFound) {
    const { media } = this.services;
    this.wasConnected = false;
    this.route = routeOf(match);
    this.socket.setCurrentMatch(match.matchId);
    yield put(a.matchFound(match));
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
async function openSocket(services: MatchingServices): Promise<VideoSocketConnection | Error> {
  try {
    return await services.openVideoSocket();
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
