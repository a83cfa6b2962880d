import { type Decider, DomainError } from '../../platform/cqrs/decider.js';
import type { RelayReason } from '@serendip/proto';
import type {
  MatchEndReason,
  MatchEvent,
  MatchSide,
  SnapshotDeletionReason,
  SnapshotEvent,
  SnapshotTaken,
} from './match.events.js';

export type MatchCommand =
  | { type: 'Pair'; matchId: string; sides: [MatchSide, MatchSide] }
  | { type: 'End'; matchId: string; endedBy: string | null; reason: MatchEndReason }
  | { type: 'Relay'; matchId: string; reason: RelayReason; sfuNode: string }
  | ({ type: 'RecordSnapshot' } & SnapshotTaken['data'])
  /** `sha256` is what the stored file's bytes hash to now. */
  | { type: 'ViewSnapshot'; matchId: string; snapshotId: string; viewedBy: string; sha256: string }
  | { type: 'HoldSnapshot'; matchId: string; snapshotId: string; caseId: string }
  | { type: 'ReleaseSnapshot'; matchId: string; snapshotId: string; caseId: string }
  | { type: 'DeleteSnapshot'; matchId: string; snapshotId: string; reason: SnapshotDeletionReason }
  | { type: 'GiveFeedback'; matchId: string; userId: string; rating: number; additionalInformation: string }
  /** `reporterId` reported `reportedId`, the other side of this call, in `reportId`. */
  | { type: 'Separate'; matchId: string; reportId: string; reporterId: string; reportedId: string };

/** What the matchmaker decides about a call: its pairing, a move to the SFU, its end. */
export type MatchDecision = Extract<MatchCommand, { type: 'Pair' | 'Relay' | 'End' }>;

export interface MatchState {
  status: 'none' | 'active' | 'ended';
  userIds: string[];
  pairedAt: number;
  feedbackBy: string[];
  /** The SFU node the call is relayed on, or null for peer to peer. */
  sfuNode: string | null;
  /** The call's snapshots (report evidence), by id. */
  snapshots: Record<string, SnapshotState>;
  /** The report that keeps these two apart for good, once one does. */
  separatedBy: string | null;
}

export interface SnapshotState {
  /** Whom it shows. */
  userId: string;
  /** What its bytes hashed to when it was taken. */
  sha256: string;
  /** The open cases that keep it. */
  heldBy: string[];
  deleted: boolean;
}

const NOT_FOUND = () => new DomainError('match-not-found', 'There is no such call of yours', { kind: 'not-found' });
const NO_SNAPSHOT = () => new DomainError('snapshot-not-found', 'No such snapshot', { kind: 'not-found' });

/** A call between two users: paired once, ended once, and one feedback per user. */
export const match: Decider<MatchCommand, MatchState, MatchEvent> = {
  initialState: {
    status: 'none',
    userIds: [],
    pairedAt: 0,
    feedbackBy: [],
    sfuNode: null,
    snapshots: {},
    separatedBy: null,
  },

  evolve(state, event) {
    switch (event.type) {
      case 'MatchPaired':
        return {
          ...state,
          status: 'active',
          userIds: event.data.sides.map((s) => s.userId),
          pairedAt: Date.parse(event.data.pairedAt),
        };
      case 'MatchEnded':
        return { ...state, status: 'ended' };
      case 'MatchRelayed':
        return { ...state, sfuNode: event.data.sfuNode };
      case 'SnapshotTaken':
      case 'SnapshotViewed':
      case 'SnapshotHeld':
      case 'SnapshotReleased':
      case 'SnapshotDeleted':
        return { ...state, snapshots: evolveSnapshots(state.snapshots, event) };
      case 'PairSeparated':
        return { ...state, separatedBy: event.data.reportId };
      case 'FeedbackGiven':
        return { ...state, feedbackBy: [...state.feedbackBy, event.data.userId] };
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  decide(command, state, { now }) {
    switch (command.type) {
      case 'Pair': {
        if (state.status !== 'none') return [];
        const [a, b] = command.sides;
        if (a.userId === b.userId) throw new DomainError('self-match', 'Nobody is paired with themselves');
        return [
          {
            type: 'MatchPaired',
            data: { matchId: command.matchId, sides: command.sides, pairedAt: now.toISOString() },
          },
        ];
      }
      case 'End': {
        if (state.status === 'none') throw NOT_FOUND();
        if (state.status === 'ended') return [];
        const { matchId, endedBy, reason } = command;
        return [{ type: 'MatchEnded', data: { matchId, endedBy, reason, durationMs: now.getTime() - state.pairedAt } }];
      }
      case 'Relay': {
        if (state.status === 'none') throw NOT_FOUND();
        // A room made again on the same node (its worker died) is the same relay; an ended call relays nothing.
        if (state.status === 'ended' || state.sfuNode === command.sfuNode) return [];
        const { matchId, reason, sfuNode } = command;
        return [{ type: 'MatchRelayed', data: { matchId, reason, sfuNode } }];
      }
      case 'RecordSnapshot': {
        if (state.status === 'none' || !state.userIds.includes(command.userId)) throw NOT_FOUND();
        const { type: _type, ...data } = command;
        // Evidence is taken for a report or a stated reason (DESIGN.md "Matching"), never just because.
        if (!data.reportId && !data.reason?.trim())
          throw new DomainError('snapshot-reason-required', 'A snapshot needs a report or a stated reason');
        return [{ type: 'SnapshotTaken', data }];
      }
      case 'ViewSnapshot': {
        const snapshot = liveSnapshot(state, command.snapshotId);
        // A file that no longer hashes to what was recorded is not the evidence that was taken: it is never shown.
        if (command.sha256 !== snapshot.sha256)
          throw new DomainError('evidence-mismatch', 'The evidence does not match its checksum, so it is not shown', {
            kind: 'conflict',
          });
        const { matchId, snapshotId, viewedBy } = command;
        return [{ type: 'SnapshotViewed', data: { matchId, snapshotId, viewedBy } }];
      }
      case 'HoldSnapshot': {
        const snapshot = liveSnapshot(state, command.snapshotId);
        if (snapshot.heldBy.includes(command.caseId)) return [];
        const { matchId, snapshotId, caseId } = command;
        return [{ type: 'SnapshotHeld', data: { matchId, snapshotId, caseId } }];
      }
      case 'ReleaseSnapshot': {
        const snapshot = state.snapshots[command.snapshotId];
        if (!snapshot) throw NO_SNAPSHOT();
        if (!snapshot.heldBy.includes(command.caseId)) return [];
        const { matchId, snapshotId, caseId } = command;
        return [{ type: 'SnapshotReleased', data: { matchId, snapshotId, caseId } }];
      }
      case 'DeleteSnapshot': {
        const snapshot = state.snapshots[command.snapshotId];
        if (!snapshot) throw NO_SNAPSHOT();
        if (snapshot.deleted) return [];
        if (snapshot.heldBy.length > 0)
          throw new DomainError('evidence-held', 'An open case holds this snapshot', { kind: 'conflict' });
        const { matchId, snapshotId, reason } = command;
        return [{ type: 'SnapshotDeleted', data: { matchId, snapshotId, userId: snapshot.userId, reason } }];
      }
      case 'Separate': {
        const { matchId, reportId, reporterId, reportedId } = command;
        // A report names the two of this call, one reporting the other: anything else separates nobody.
        if (
          state.status === 'none' ||
          reporterId === reportedId ||
          !state.userIds.includes(reporterId) ||
          !state.userIds.includes(reportedId)
        )
          throw NOT_FOUND();
        // Apart already (the other side reported too, or the same report came again): for good is for good.
        if (state.separatedBy !== null) return [];
        return [{ type: 'PairSeparated', data: { matchId, userIds: [reporterId, reportedId], reportId } }];
      }
      case 'GiveFeedback': {
        // Someone else's call reads as no call at all: ids are not to be probed.
        if (state.status === 'none' || !state.userIds.includes(command.userId)) throw NOT_FOUND();
        if (state.feedbackBy.includes(command.userId))
          throw new DomainError('feedback-already-given', 'You already gave feedback on this call');
        if (!Number.isInteger(command.rating) || command.rating < 1 || command.rating > 5)
          throw new DomainError('invalid-rating', 'rating must be a whole number from 1 to 5');
        const { matchId, userId, rating, additionalInformation } = command;
        return [{ type: 'FeedbackGiven', data: { matchId, userId, rating, additionalInformation } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`unhandled command ${(unknown as { type: string }).type}`);
      }
    }
  },
};

/** A snapshot that can still be shown or held: taken, and not deleted. */
function liveSnapshot(state: MatchState, snapshotId: string): SnapshotState {
  const snapshot = state.snapshots[snapshotId];
  if (!snapshot || snapshot.deleted) throw NO_SNAPSHOT();
  return snapshot;
}

function evolveSnapshots(
  snapshots: Record<string, SnapshotState>,
  event: SnapshotEvent,
): Record<string, SnapshotState> {
  const { snapshotId } = event.data;
  if (event.type === 'SnapshotTaken') {
    const { userId, sha256 } = event.data;
    return { ...snapshots, [snapshotId]: { userId, sha256, heldBy: [], deleted: false } };
  }
  const snapshot = snapshots[snapshotId];
  if (!snapshot) return snapshots;
  switch (event.type) {
    case 'SnapshotViewed':
      return snapshots;
    case 'SnapshotHeld':
      return { ...snapshots, [snapshotId]: { ...snapshot, heldBy: [...snapshot.heldBy, event.data.caseId] } };
    case 'SnapshotReleased': {
      const heldBy = snapshot.heldBy.filter((caseId) => caseId !== event.data.caseId);
      return { ...snapshots, [snapshotId]: { ...snapshot, heldBy } };
    }
    case 'SnapshotDeleted':
      return { ...snapshots, [snapshotId]: { ...snapshot, deleted: true } };
  }
}
