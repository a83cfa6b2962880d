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

export const MATCHING_PATHS = {
  submitFeedback: '/api/user/submit-feedback',
} as const;
