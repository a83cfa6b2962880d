import type { MatchFilters } from '../socket/video.js';

/**
 * Matching's HTTP contracts (spec 3 "Feedback", spec 7 POST /user/submit-feedback). The submitter is the
 * signed-in user, never a field of the body.
 */

/** spec 5: a rating of 1 to 5 with these labels. */
export const FEEDBACK_RATINGS = { 1: 'Poor', 2: 'Fair', 3: 'Good', 4: 'Very Good', 5: 'Excellent' } as const;
export type FeedbackRating = keyof typeof FEEDBACK_RATINGS;

export const FEEDBACK_TEXT_MAX_LENGTH = 1_000;

export interface SubmitFeedbackRequest {
  /** The call the feedback is about (from matchFound); one feedback per user per call. */
  matchId: string;
  rating: FeedbackRating;
  additionalInformation?: string;
  type?: 'videomatch';
}

/**
 * GET and PUT: the signed-in account's own match preferences (the wizard's choices), kept on the server so a later
 * visit starts at the ready screen. `filters` is null before the first save. The PUT body is the filters themselves,
 * checked by the socket contract's `matchFiltersSchema`.
 */
export interface MatchPreferencesAnswer {
  filters: MatchFilters | null;
}

export const MATCHING_PATHS = {
  submitFeedback: '/api/user/submit-feedback',
  matchPreferences: '/api/user/match-preferences',
} as const;
