import { type Decider, DomainError } from '../../platform/cqrs/decider.js';
import type { RelayReason } from '@serendip/proto';
import type { MatchEndReason, MatchEvent, MatchSide, SnapshotTaken } from './match.events.js';

export type MatchCommand =
  | { type: 'Pair'; matchId: string; sides: [MatchSide, MatchSide] }
  | { type: 'End'; matchId: string; endedBy: string | null; reason: MatchEndReason }
  | { type: 'Relay'; matchId: string; reason: RelayReason; sfuNode: string }
  | ({ type: 'RecordSnapshot' } & SnapshotTaken['data'])
  | { type: 'GiveFeedback'; matchId: string; userId: string; rating: number; additionalInformation: string };

/** What the matchmaker decides about a call: its pairing, a move to the SFU, its end. */
export type MatchDecision = Extract<MatchCommand, { type: 'Pair' | 'Relay' | 'End' }>;

export interface MatchState {
  status: 'none' | 'active' | 'ended';
  userIds: string[];
  pairedAt: number;
  feedbackBy: string[];
  /** The SFU node the call is relayed on, or null for peer to peer. */
  sfuNode: string | null;
}

const NOT_FOUND = () => new DomainError('match-not-found', 'There is no such call of yours', { kind: 'not-found' });

/** A call between two users: paired once, ended once, and one feedback per user. */
export const match: Decider<MatchCommand, MatchState, MatchEvent> = {
  initialState: { status: 'none', userIds: [], pairedAt: 0, feedbackBy: [], sfuNode: null },

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
        return state;
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
        return [{ type: 'SnapshotTaken', data }];
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
