import type { ModerationIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { ReportEvent } from '../domain/report.events.js';
import type { StandingEvent } from '../domain/standing.events.js';

/**
 * What moderation tells others: a ban (matching ends the calls, identity bars a permanently banned address), its end,
 * a filed report (matching keeps the two apart), and the outcomes people are told of (notifications: a report acted
 * on, an appeal decided). Ids and dates only.
 */
export function moderationIntegrationEvents(recorded: RecordedEvent): ModerationIntegrationEvent[] {
  const event = recorded as unknown as StandingEvent | ReportEvent;
  const base = { id: recorded.id, context: 'moderation', occurredAt: recorded.metadata.occurredAt };
  switch (event.type) {
    case 'UserBanned': {
      const { userId, caseId, expiresAt } = event.data;
      return [{ ...base, type: 'UserBanned', data: { userId, caseId, expiresAt } }];
    }
    case 'UserUnbanned':
      return [
        { ...base, type: 'BanEnded', data: { userId: event.data.userId, caseId: event.data.caseId, how: 'unbanned' } },
      ];
    case 'BanExpired':
      return [
        { ...base, type: 'BanEnded', data: { userId: event.data.userId, caseId: event.data.caseId, how: 'expired' } },
      ];
    case 'AppealResolved': {
      const { userId, caseId, outcome } = event.data;
      const decided: ModerationIntegrationEvent = { ...base, type: 'AppealDecided', data: { userId, caseId, outcome } };
      return outcome === 'approved'
        ? [{ ...base, type: 'BanEnded', data: { userId, caseId, how: 'appeal-approved' } }, decided]
        : [decided];
    }
    case 'ReportFiled': {
      const { reportId, matchId, reporterId, reportedId } = event.data;
      return [{ ...base, type: 'ReportFiled', data: { reportId, matchId, reporterId, reportedId } }];
    }
    // A warning restricts nothing; a report of something written keeps no one apart (it was no call).
    case 'ContentReportFiled':
    case 'ReportedContentKept':
    case 'UserWarned':
    case 'BanAppealed':
    case 'ServerSnapshotAttached':
    case 'ReportScreenshotViewed':
    case 'ReportScreenshotDeleted':
      return [];
    case 'ReportResolved': {
      const { reportId, reporterId, outcome } = event.data;
      return outcome === 'actioned' ? [{ ...base, type: 'ReportActioned', data: { reportId, reporterId } }] : [];
    }
    default: {
      const unknown: never = event;
      throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
    }
  }
}
