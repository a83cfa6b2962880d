import { REVIEW_REPORT_ABOUT_YOU, REVIEW_REPORT_YOU_FILED } from '@serendip/proto';
import { DomainError } from '../../platform/cqrs/decider.js';

/** Who a report names: the reporter and the person reported. */
export interface ReportParties {
  reporterId: string;
  reportedId: string;
}

/**
 * spec 4 "Appeal" asks for impartial review, and so does a report: nobody reviews (dismisses, marks false, or bans
 * acting on) a report about themselves or one they filed; another staff member does. Why the reviewer may not, or null.
 */
export function reviewBar(reviewerId: string, report: ReportParties): 'about-you' | 'filed-by-you' | null {
  if (report.reportedId === reviewerId) return 'about-you';
  if (report.reporterId === reviewerId) return 'filed-by-you';
  return null;
}

/** Refuses (403) a review `reviewBar` bars. */
export function assertMayReview(reviewerId: string, report: ReportParties): void {
  const bar = reviewBar(reviewerId, report);
  if (bar === 'about-you') throw new DomainError('review-own-case', REVIEW_REPORT_ABOUT_YOU, { kind: 'forbidden' });
  if (bar === 'filed-by-you') {
    throw new DomainError('review-own-report', REVIEW_REPORT_YOU_FILED, { kind: 'forbidden' });
  }
}
