import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { MatchFilters, MatchFound, NetworkQuality, PartnerLeftReason, PartnerProfile } from '@serendip/proto';
import { MATCHING_TEXTS } from './matching-messages';
import type { MediaToggles } from './media-preferences';
import { loadToggles } from './media-preferences';
import { DEFAULT_FILTERS } from './preferences';

/** spec 3 "Match state". */
export type MatchStatus = 'idle' | 'searching' | 'connecting' | 'connected';
export type Permission = 'idle' | 'waiting' | 'granted' | 'denied';
export const WIZARD_STEPS = ['gender', 'country', 'age', 'ready'] as const;

export interface ChatLine {
  id: number;
  /** spec 3 "Chat message": 'me' or the partner; 'system' for what happened (the partner left). */
  sender: 'me' | 'partner' | 'system';
  text: string;
  /** When it was sent (ours) or received (the partner's), in epoch ms: shown as HH:MM. */
  at: number;
}

/** What the call surface says for a moment when the partner ends the call (no blame beyond what the server knows). */
export const PARTNER_LEFT_NOTICE: Record<PartnerLeftReason, string> = {
  skip: MATCHING_TEXTS.partnerSkipped,
  leave: MATCHING_TEXTS.partnerLeft,
  // A ban is the server's business: the partner is only told that the other left.
  ban: MATCHING_TEXTS.partnerLeft,
  disconnect: MATCHING_TEXTS.connectionLost,
};

export interface MatchingState {
  /**
   * 'loading' until the account's saved preferences are known; then the wizard (first time, or Edit), the ready screen
   * (saved preferences, Start and Edit), or the call.
   */
  view: 'loading' | 'wizard' | 'ready' | 'call';
  step: number;
  filters: MatchFilters;
  permission: Permission;
  status: MatchStatus;
  /** The connection sub-state's message (spec 3), e.g. 'Establishing connection...'. */
  message: string | null;
  matchId: string | null;
  partner: PartnerProfile | null;
  /** The interests both chose (from matchFound), shown in the call. */
  sharedInterests: string[];
  partnerMicOn: boolean;
  partnerCameraOn: boolean;
  partnerSpeaking: boolean;
  partnerQuality: NetworkQuality;
  /** The last call's chat: kept after the call ends (with the partner-left line) until the next match. */
  chat: ChatLine[];
  /** The first name of whom the chat is with (the partner, or the last partner until the next match). */
  chatWith: string | null;
  chatOpen: boolean;
  /** The partner typed lately (shown for `CHAT_TIMING.typingShownMs` after the last `typing`). */
  partnerTyping: boolean;
  /** The partner's socket dropped; the server holds the call for the grace period. */
  partnerReconnecting: boolean;
  /** Why the last call ended, shown over the video for a moment (`CALL_NOTICE_MS`). */
  callNotice: { matchId: string; text: string } | null;
  /** Messages that came while the chat panel was closed. */
  unread: number;
  media: MediaToggles;
  feedback: { matchId: string; partnerName: string; phase: 'asking' | 'thanks' } | null;
  /** The Report dialog (reports/CallReport) is open: a call that ends meanwhile does not start the next search (spec 4). */
  reportDialogOpen: boolean;
}

export const initialMatchingState = (filters: MatchFilters = DEFAULT_FILTERS, media = { mic: true, camera: true }) =>
  ({
    view: 'loading',
    step: 0,
    filters,
    permission: 'idle',
    status: 'idle',
    message: null,
    matchId: null,
    partner: null,
    sharedInterests: [],
    partnerMicOn: true,
    partnerCameraOn: true,
    partnerSpeaking: false,
    partnerQuality: 'unknown',
    chat: [],
    chatWith: null,
    chatOpen: false,
    partnerTyping: false,
    partnerReconnecting: false,
    callNotice: null,
    unread: 0,
    media,
    feedback: null,
    reportDialogOpen: false,
  }) satisfies MatchingState as MatchingState;

/** The call is over; its chat stays readable until the next match (or leaving). */
const clearCall = (state: MatchingState) => {
  state.matchId = null;
  state.partner = null;
  state.sharedInterests = [];
  state.unread = 0;
  state.partnerTyping = false;
  state.partnerReconnecting = false;
  state.partnerMicOn = true;
  state.partnerCameraOn = true;
  state.partnerSpeaking = false;
  state.partnerQuality = 'unknown';
};

const clearChat = (state: MatchingState) => {
  state.chat = [];
  state.chatWith = null;
};

const appendLine = (state: MatchingState, line: Omit<ChatLine, 'id'>) => {
  state.chat.push({ id: (state.chat.at(-1)?.id ?? 0) + 1, ...line });
};

const matchingSlice = createSlice({
  name: 'matching',
  // Read when the store is made: this browser's camera and microphone switches (the preferences are the account's).
  initialState: () => initialMatchingState(DEFAULT_FILTERS, loadToggles()),
  reducers: {
    /** The page needs the account's saved preferences (once per page load). */
    preferencesRequested() {},
    /** The saved preferences (null: none yet, or they could not be read): the ready screen, or the wizard. */
    preferencesLoaded(state, action: PayloadAction<MatchFilters | null>) {
      if (state.view !== 'loading') return;
      state.filters = action.payload ?? DEFAULT_FILTERS;
      state.view = action.payload ? 'ready' : 'wizard';
      state.step = 0;
    },
    /** The ready screen shows the camera and microphone (the saga starts them, and stops them unless a call follows). */
    previewRequested(state) {
      if (state.view !== 'call' && state.permission === 'idle') state.permission = 'waiting';
    },
    previewEnded() {},
    /** 'Edit' on the ready screen: the wizard again, from its first step, with the saved choices in it. */
    editRequested(state) {
      state.view = 'wizard';
      state.step = 0;
    },
    wizardStepChanged(state, action: PayloadAction<number>) {
      state.step = Math.max(0, Math.min(WIZARD_STEPS.length - 1, action.payload));
    },
    filtersChanged(state, action: PayloadAction<Partial<MatchFilters>>) {
      state.filters = { ...state.filters, ...action.payload };
    },
    /** 'Start Matching' on the wizard's last step. */
    matchingStarted(state) {
      state.view = 'call';
      state.permission = 'waiting';
      state.status = 'idle';
      state.message = null;
    },
    permissionResolved(state, action: PayloadAction<Permission>) {
      state.permission = action.payload;
    },
    searchStarted(state) {
      clearCall(state);
      state.status = 'searching';
      state.message = null;
    },
    /** The stop button while searching, or the search was refused: back to the idle message. */
    searchStopped(state) {
      clearCall(state);
      state.status = 'idle';
    },
    findMatchRequested() {},
    stopRequested() {},
    skipRequested() {},
    leaveRequested() {},
    /**
     * Matching is over (spec 4 "Leave": back to the filters): the ready screen with them, one click from the next
     * start; Edit opens the wizard.
     */
    matchingLeft(state) {
      clearCall(state);
      clearChat(state);
      state.callNotice = null;
      state.view = 'ready';
      state.step = 0;
      state.status = 'idle';
      state.permission = 'idle';
      state.message = null;
      state.chatOpen = false;
    },
    matchFound(state, action: PayloadAction<MatchFound>) {
      clearCall(state);
      clearChat(state);
      state.callNotice = null;
      state.matchId = action.payload.matchId;
      state.partner = action.payload.partnerUser;
      state.sharedInterests = action.payload.sharedInterests ?? [];
      state.chatWith = action.payload.partnerUser.firstName;
      state.status = 'connecting';
      state.message = 'Establishing connection...';
    },
    /**
     * A new page (a reload, a new tab) goes back to the call this browser was in (active-call.ts): the call view at
     * once, with that call's chat, while the camera and the socket start and the server gives the call back.
     */
    callResuming(
      state,
      action: PayloadAction<{ matchId: string; chat: ChatLine[]; chatWith: string | null; chatOpen: boolean }>,
    ) {
      clearCall(state);
      state.view = 'call';
      state.permission = 'waiting';
      state.status = 'connecting';
      state.message = 'Establishing connection...';
      state.callNotice = null;
      state.chat = action.payload.chat;
      state.chatWith = action.payload.chatWith;
      state.chatOpen = action.payload.chatOpen;
    },
    /** The server gave the call back to this new page: the same partner, the chat kept, the media connecting anew. */
    matchResumed(state, action: PayloadAction<MatchFound>) {
      clearCall(state);
      state.matchId = action.payload.matchId;
      state.partner = action.payload.partnerUser;
      state.sharedInterests = action.payload.sharedInterests ?? [];
      state.chatWith = action.payload.partnerUser.firstName;
      state.status = 'connecting';
      state.message = 'Establishing connection...';
    },
    /**
     * After a blip the server may know the partner by a new per-call id (a new matchmaker took the call over and made
     * one): it is their name from then on, for relays both ways.
     */
    partnerRenamed(state, action: PayloadAction<string>) {
      if (state.partner) state.partner = { ...state.partner, _id: action.payload, socketId: action.payload };
    },
    peerConnected(state) {
      state.status = 'connected';
      state.message = null;
    },
    connectionMessage(state, action: PayloadAction<string | null>) {
      state.message = action.payload;
    },
    /** The partner ended the call (or its connection was lost): said over the video, and in the chat. */
    partnerLeft(state, action: PayloadAction<{ reason: PartnerLeftReason; at: number }>) {
      if (state.matchId)
        state.callNotice = { matchId: state.matchId, text: PARTNER_LEFT_NOTICE[action.payload.reason] };
      if (state.partner) {
        appendLine(state, {
          sender: 'system',
          text: MATCHING_TEXTS.leftChat(state.partner.firstName),
          at: action.payload.at,
        });
      }
      clearCall(state);
    },
    /** We ended the call ourselves (skip, stop): its chat goes with it; only a partner leaving keeps it readable. */
    ownChatClosed(state) {
      clearChat(state);
    },
    /** The notice of that call has been shown long enough. */
    callNoticeCleared(state, action: PayloadAction<string>) {
      if (state.callNotice?.matchId === action.payload) state.callNotice = null;
    },
    partnerReconnectingChanged(state, action: PayloadAction<boolean>) {
      if (state.partner) state.partnerReconnecting = action.payload;
    },
    partnerTypingChanged(state, action: PayloadAction<boolean>) {
      state.partnerTyping = action.payload && state.partner !== null;
    },
    /** A keystroke in the chat input: the saga tells the partner, at most every `CHAT_TIMING.typingEveryMs`. */
    chatTyped() {},
    connectionTimedOut(_state, _action: PayloadAction<string>) {},
    /** auto mode: that call's peer connection is not up after `MEDIA_TIMING.p2pFallbackMs`. */
    p2pFallbackDue(_state, _action: PayloadAction<string>) {},
    /** The SFU refused that call's join (or it could not be set up): a failed connection. */
    relayJoinFailed(_state, _action: PayloadAction<string>) {},
    /** The call's media starts over through the SFU (moved there, or its room was lost): connecting again. */
    mediaRejoining(state) {
      if (!state.partner) return;
      state.status = 'connecting';
      state.message = 'Establishing connection...';
    },
    partnerVideoFailed() {},
    chatToggled(state) {
      state.chatOpen = !state.chatOpen;
      if (state.chatOpen) state.unread = 0;
    },
    chatSent(_state, _action: PayloadAction<string>) {},
    chatAppended(state, action: PayloadAction<{ sender: 'me' | 'partner'; text: string; at: number }>) {
      appendLine(state, action.payload);
      if (action.payload.sender === 'partner') {
        state.partnerTyping = false;
        if (!state.chatOpen) state.unread += 1;
      }
    },
    partnerMicChanged(state, action: PayloadAction<boolean>) {
      state.partnerMicOn = action.payload;
    },
    partnerCameraChanged(state, action: PayloadAction<boolean>) {
      state.partnerCameraOn = action.payload;
    },
    partnerSpeakingChanged(state, action: PayloadAction<boolean>) {
      state.partnerSpeaking = action.payload;
    },
    partnerQualityChanged(state, action: PayloadAction<NetworkQuality>) {
      state.partnerQuality = action.payload;
    },
    mediaToggled(state, action: PayloadAction<keyof MediaToggles>) {
      state.media[action.payload] = !state.media[action.payload];
    },
    feedbackOffered(state, action: PayloadAction<{ matchId: string; partnerName: string }>) {
      state.feedback = { ...action.payload, phase: 'asking' };
    },
    feedbackSubmitted(_state, _action: PayloadAction<{ rating: number; additionalInformation: string }>) {},
    feedbackThanked(state) {
      if (state.feedback) state.feedback.phase = 'thanks';
    },
    /** Closes the feedback card of that call (a newer call's card stays). */
    feedbackClosed(state, action: PayloadAction<string>) {
      if (state.feedback?.matchId === action.payload) state.feedback = null;
    },
    /** Opened (the next match waits) or closed (a held search starts). */
    reportDialogToggled(state, action: PayloadAction<boolean>) {
      state.reportDialogOpen = action.payload;
    },
    /**
     * The report's own frame of the partner's video is taken (or could not be): the saga now asks the server to relay
     * the call for its snapshot. Not before: the move to the SFU swaps the video under the capture.
     */
    reportFrameTaken() {},
    /** The video socket was refused as banned: the app checks the user's standing (moderation saga). */
    restrictionNoticed() {},
  },
});

export const matchingActions = matchingSlice.actions;
export const matchingReducer = matchingSlice.reducer;
