import { MATCH_TIMING, MEDIA_TIMING, type MatchFound, type MediaPath } from '@serendip/proto';
import { call, delay, put } from 'redux-saga/effects';
import { logError } from '../../shared/log';
import { CONNECTION_MESSAGES } from './matching-messages';
import { matchingActions as a } from './matching.slice';
import type { MediaSession } from './media-session';
import type { RelaySignalling } from './relay-call';

/** How the current call's media goes, and whether it may still move to the SFU. */
export interface MediaRoute {
  path: MediaPath;
  /** auto mode: a peer connection that does not come up asks for the SFU instead of skipping. */
  relayFallback: boolean;
  /** `media:fallback` went out for this call (it is asked once). */
  fallbackAsked: boolean;
}

export function routeOf(match: MatchFound): MediaRoute {
  return { path: match.media, relayFallback: match.media === 'p2p' && match.relayFallback, fallbackAsked: false };
}

/** What to do about a connection that is not (or no longer) up. */
export type ConnectionTrouble = 'ask-relay' | 'keep-waiting' | 'try-another';

/**
 * spec 4: a connection that fails (or has not come up in time) moves on to another match; auto mode first
 * asks, once, for the SFU, and then waits for it (the call's connection timeout still bounds the wait). A call that
 * was up and then dropped moves on as before.
 */
export function connectionTrouble(route: MediaRoute, wasConnected: boolean): ConnectionTrouble {
  if (route.path === 'relay' || !route.relayFallback || wasConnected) return 'try-another';
  return route.fallbackAsked ? 'keep-waiting' : 'ask-relay';
}

export function* connectionTimeout(matchId: string) {
  yield delay(MATCH_TIMING.connectionTimeoutMs);
  yield put(a.connectionTimedOut(matchId));
}

export function* p2pFallbackTimeout(matchId: string) {
  yield delay(MEDIA_TIMING.p2pFallbackMs);
  yield put(a.p2pFallbackDue(matchId));
}

/** Forked, so clicks and socket messages are still heard while the SFU answers. */
export function* joinRelay(media: MediaSession, signal: RelaySignalling, matchId: string) {
  try {
    yield call([media, media.joinRelay], signal);
  } catch (error) {
    logError(CONNECTION_MESSAGES.rtcFailed, error);
    yield put(a.relayJoinFailed(matchId));
  }
}
