import type { MatchingIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { MatchPreferencesSaved } from '../domain/match-preferences.js';
import type { MatchEvent } from '../domain/match.events.js';

/**
 * What matching tells others: who was paired and how calls end (moderation and the dashboard read these), and which
 * pairs a report keeps apart (the leading matchmaker learns them from it).
 */
export function matchingIntegrationEvents(recorded: RecordedEvent): MatchingIntegrationEvent[] {
  const event = recorded as unknown as MatchEvent | MatchPreferencesSaved;
  const base = { id: recorded.id, context: 'matching', occurredAt: recorded.metadata.occurredAt };
  switch (event.type) {
    case 'MatchPaired': {
      const [a, b] = event.data.sides;
      return [{ ...base, type: 'MatchPaired', data: { matchId: event.data.matchId, userIds: [a.userId, b.userId] } }];
    }
    case 'MatchEnded': {
      const { matchId, endedBy, reason } = event.data;
      return [{ ...base, type: 'MatchEnded', data: { matchId, endedBy, reason } }];
    }
    case 'PairSeparated': {
      const { matchId, userIds, reportId } = event.data;
      return [{ ...base, type: 'PairSeparated', data: { matchId, userIds, reportId } }];
    }
    case 'MatchRelayed':
    case 'SnapshotTaken':
    case 'SnapshotViewed':
    case 'SnapshotHeld':
    case 'SnapshotReleased':
    case 'SnapshotDeleted':
    case 'FeedbackGiven':
    case 'MatchPreferencesSaved': // whom someone looks for is nobody else's business
      return [];
    default: {
      const unknown: never = event;
      throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
    }
  }
}
