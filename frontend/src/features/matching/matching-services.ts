import { MATCHING_PATHS, type NetworkQuality, type SubmitFeedbackRequest } from '@serendip/proto';
import { post, refreshSession } from '../../shared/http/http-client';
import { API_BASE_PATH } from '../../shared/http/http-client';
import { BrowserMediaSession, type MediaSession } from './media-session';
import { currentNetworkQuality } from './network-quality';
import { openVideoSocket, type VideoSocketConnection } from './video-socket';

/** What the matching saga reaches outside the store; tests pass fakes. */
export interface MatchingServices {
  openVideoSocket: () => Promise<VideoSocketConnection>;
  media: MediaSession;
  submitFeedback: (request: SubmitFeedbackRequest) => Promise<void>;
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
  submitFeedback: async (request) => {
    await post(MATCHING_PATHS.submitFeedback.slice(API_BASE_PATH.length), request);
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
