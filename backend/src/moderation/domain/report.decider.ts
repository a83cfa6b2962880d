import {
  MODERATION_NOTE_MAX_LENGTH,
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_WINDOW_HOURS,
  type ReportedContentKind,
  type ReportOutcome,
  type ReportReason,
  type ReportSeverity,
} from '@serendip/proto';
import { type Decider, DomainError, invalidField } from '../../platform/cqrs/decider.js';
import type { EvidenceFile, ReportEvent } from './report.events.js';
import { assertMayReview } from './review-authority.js';

/** The call as matching recorded it: who was in it, and when it ended (null while it is on). */
export interface ReportedCall {
  matchId: string;
  userIds: [string, string];
  endedAt: Date | null;
}

export type ReportCommand =
  | {
      type: 'FileReport';
      reportId: string;
      reporterId: string;
      /** matching's record of the call the report names (undefined when there is none): it says who was reported. */
      call: ReportedCall | undefined;
      reason: ReportReason;
      severity: ReportSeverity;
      details: string;
      screenshot: EvidenceFile | null;
    }
  | {
      type: 'FileContentReport';
      reportId: string;
      reporterId: string;
      /** The feed's record of what is reported (undefined when there is no such thing). */
      content: { kind: ReportedContentKind; id: string; postId: string; authorId: string; text: string } | undefined;
      /** A reported post's picture, copied into the evidence store. */
      screenshot: EvidenceFile | null;
      reason: ReportReason;
      severity: ReportSeverity;
      details: string;
    }
  | { type: 'AttachServerSnapshot'; snapshotId: string; sha256: string }
  | { type: 'RecordScreenshotView' }
  | { type: 'DeleteScreenshot' }
  | { type: 'ResolveReport'; outcome: ReportOutcome; note: string; caseId: string | null };

export interface ReportState {
  reportId: string | null;
  reporterId: string | null;
  reportedId: string | null;
  hasScreenshot: boolean;
  snapshotId: string | null;
  outcome: ReportOutcome | null;
}

const HOUR_MS = 3_600_000;

const notFound = () => new DomainError('no-such-report', 'No such report', { kind: 'not-found' });

/**
 * A report (spec 3 Report, 5): only a party of the call may report the other, within REPORT_WINDOW_HOURS of its end,
 * once per call (the stream is the reporter's for that call, so a second report finds it filed). It is reviewed once,
 * by neither of its parties.
 */
export const report: Decider<ReportCommand, ReportState, ReportEvent> = {
  initialState: {
    reportId: null,
    reporterId: null,
    reportedId: null,
    hasScreenshot: false,
    snapshotId: null,
    outcome: null,
  },

  evolve(state, event) {
    switch (event.type) {
      case 'ReportFiled':
        return {
          ...state,
          reportId: event.data.reportId,
          reporterId: event.data.reporterId,
          reportedId: event.data.reportedId,
          hasScreenshot: event.data.screenshot !== null,
        };
      case 'ContentReportFiled':
        return {
          ...state,
          reportId: event.data.reportId,
          reporterId: event.data.reporterId,
          reportedId: event.data.reportedId,
          hasScreenshot: Boolean(event.data.screenshot),
        };
      case 'ReportedContentKept':
        return state;
      case 'ServerSnapshotAttached':
        return { ...state, snapshotId: event.data.snapshotId };
      case 'ReportScreenshotViewed':
        return state;
      case 'ReportScreenshotDeleted':
        return { ...state, hasScreenshot: false };
      case 'ReportResolved':
        return { ...state, outcome: event.data.outcome };
    }
  },

  decide(command, state, { now, actor }) {
    switch (command.type) {
      case 'FileReport': {
        if (state.reportId) {
          throw new DomainError('already-reported', 'You already reported this call', { kind: 'conflict' });
        }
        const { call, reporterId } = command;
        // A call that does not exist and one the reporter was not in answer alike: nobody learns of others' calls.
        if (!call || !call.userIds.includes(reporterId)) {
          throw new DomainError('not-your-call', 'You can only report someone you were in a call with', {
            kind: 'forbidden',
          });
        }
        if (call.endedAt && now.getTime() - call.endedAt.getTime() > REPORT_WINDOW_HOURS * HOUR_MS) {
          throw new DomainError(
            'report-window-over',
            `A call can be reported up to ${REPORT_WINDOW_HOURS} hours after it ended`,
            { kind: 'forbidden' },
          );
        }
        const details = command.details.trim();
        if (details.length > REPORT_DETAILS_MAX_LENGTH) {
          throw invalidField('details', `must be at most ${REPORT_DETAILS_MAX_LENGTH} characters`, 'too-long');
        }
        const [a, b] = call.userIds;
        return [
          {
            type: 'ReportFiled',
            data: {
              reportId: command.reportId,
              matchId: call.matchId,
              reporterId,
              reportedId: a === reporterId ? b : a,
              reason: command.reason,
              severity: command.severity,
              details,
              screenshot: command.screenshot,
              filedAt: now.toISOString(),
            },
          },
        ];
      }
      case 'FileContentReport': {
        const { content, reporterId } = command;
        if (state.reportId) {
          throw new DomainError('already-reported', 'You already reported this', { kind: 'conflict' });
        }
        if (!content) {
          throw new DomainError('no-such-content', 'This no longer exists.', { kind: 'not-found' });
        }
        if (content.authorId === reporterId) {
          throw new DomainError('own-content', 'You cannot report what you wrote yourself', { kind: 'forbidden' });
        }
        const details = command.details.trim();
        if (details.length > REPORT_DETAILS_MAX_LENGTH) {
          throw invalidField('details', `must be at most ${REPORT_DETAILS_MAX_LENGTH} characters`, 'too-long');
        }
        const { reportId } = command;
        return [
          {
            type: 'ContentReportFiled',
            data: {
              reportId,
              reporterId,
              reportedId: content.authorId,
              content: { kind: content.kind, id: content.id, postId: content.postId },
              reason: command.reason,
              severity: command.severity,
              details,
              screenshot: command.screenshot,
              filedAt: now.toISOString(),
            },
          },
          { type: 'ReportedContentKept', data: { reportId, reportedId: content.authorId, text: content.text } },
        ];
      }
      case 'AttachServerSnapshot': {
        if (!state.reportId) throw notFound();
        if (state.snapshotId) return [];
        return [
          {
            type: 'ServerSnapshotAttached',
            data: { reportId: state.reportId, snapshotId: command.snapshotId, sha256: command.sha256 },
          },
        ];
      }
      case 'RecordScreenshotView': {
        if (!state.reportId || !state.hasScreenshot) throw notFound();
        return [{ type: 'ReportScreenshotViewed', data: { reportId: state.reportId, viewedBy: actor } }];
      }
      case 'DeleteScreenshot': {
        if (!state.reportId) throw notFound();
        if (!state.hasScreenshot) return [];
        return [{ type: 'ReportScreenshotDeleted', data: { reportId: state.reportId, reason: 'account-deleted' } }];
      }
      case 'ResolveReport': {
        if (!state.reportId || !state.reporterId || !state.reportedId) throw notFound();
        assertMayReview(actor, { reporterId: state.reporterId, reportedId: state.reportedId });
        if (state.outcome) {
          throw new DomainError('already-resolved', `This report was already reviewed (${state.outcome})`, {
            kind: 'conflict',
          });
        }
        const note = command.note.trim();
        if (note.length > MODERATION_NOTE_MAX_LENGTH) {
          throw invalidField('note', `must be at most ${MODERATION_NOTE_MAX_LENGTH} characters`, 'too-long');
        }
        // Marking a report false judges the reporter: it needs a stated reason.
        if (command.outcome === 'false' && !note) {
          throw invalidField('note', 'must say why the report is false', 'note-missing');
        }
        if (command.outcome === 'actioned' && !command.caseId) {
          throw invalidField('caseId', 'an actioned report names the ban it led to', 'case-missing');
        }
        return [
          {
            type: 'ReportResolved',
            data: {
              reportId: state.reportId,
              reporterId: state.reporterId,
              outcome: command.outcome,
              by: actor,
              note,
              caseId: command.outcome === 'actioned' ? command.caseId : null,
            },
          },
        ];
      }
    }
  },
};
