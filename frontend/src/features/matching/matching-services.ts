import {
  type MatchFilters,
  type MatchPreferencesAnswer,
  MATCHING_PATHS,
  type NetworkQuality,
  type SubmitFeedbackRequest,
} from '@serendip/proto';
import { get, post, put, refreshSession } from '../../shared/http/http-client';
import { API_BASE_PATH } from '../../shared/http/http-client';
import { type ActiveCallStore, browserActiveCallStore } from './active-call';
import { BrowserMediaSession, type MediaSession } from './media-session';
import { currentNetworkQuality } from './network-quality';
import { openVideoSocket, type VideoSocketConnection } from './video-socket';

/** What the matching saga reaches outside the store; tests pass fakes. */
export interface MatchingServices {
  /** `resume`: a new page goes back to that call (see active-call.ts). */
  openVideoSocket: (resume?: { matchId: string }) => Promise<VideoSocketConnection>;
  media: MediaSession;
  /** The call in progress, kept for a reload or a new tab within the grace period. */
  activeCall: ActiveCallStore;
  submitFeedback: (request: SubmitFeedbackRequest) => Promise<void>;
  /** The account's saved preferences (null before the first start). */
  loadPreferences: () => Promise<MatchFilters | null>;
  savePreferences: (filters: MatchFilters) => Promise<void>;
  /** spec 7: mobile when the window is at most 768 px wide. */
  deviceType: () => 'mobile' | 'desktop';
  networkQuality: () => NetworkQuality;
  /** spec 9: a chat message makes a sound when the tab is hidden. */
  chatArrivedWhileAway: () => void;
  /** A new access-token cookie (the socket's handshake checks it); rejects when the session is over. */
  refreshSession: () => Promise<void>;
}

/** One per page load: the views and the saga share it. */
export const browserMediaSession = new BrowserMediaSession();

export const browserMatchingServices: MatchingServices = {
  openVideoSocket,
  media: browserMediaSession,
  activeCall: browserActiveCallStore(),
  submitFeedback: async (request) => {
    await post(MATCHING_PATHS.submitFeedback.slice(API_BASE_PATH.length), request);
  },
  loadPreferences: async () =>
    (await get<MatchPreferencesAnswer>(MATCHING_PATHS.matchPreferences.slice(API_BASE_PATH.length))).filters,
  savePreferences: async (filters) => {
    await put(MATCHING_PATHS.matchPreferences.slice(API_BASE_PATH.length), filters);
  },
  deviceType: () => (window.innerWidth <= 768 ? 'mobile' : 'desktop'),
  refreshSession: async () => {
    await refreshSession();
  },
  networkQuality: currentNetworkQuality,
  chatArrivedWhileAway: () => {
    if (!document.hidden) return;
    // A short two-note chime made on the spot: no sound file to fetch.
    try {
      const context = new AudioContext();
      const gain = context.createGain();
      gain.gain.value = 0.08;
      gain.connect(context.destination);
      [660, 880].forEach((frequency, i) => {
        const tone = context.createOscillator();
        tone.frequency.value = frequency;
        tone.connect(gain);
        tone.start(context.currentTime + i * 0.12);
        tone.stop(context.currentTime + i * 0.12 + 0.1);
      });
      setTimeout(() => void context.close(), 600);
    } catch {
      // no audio here: the message is still in the chat
    }
  },
};
