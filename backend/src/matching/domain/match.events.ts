import type { MatchFilters, RelayReason } from '@serendip/proto';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

export type MatchEndReason = 'skip' | 'leave' | 'disconnect' | 'timeout' | 'ban';

/** One side of a pairing: who, what they were looking for, how long they waited. */
export interface MatchSide {
  userId: string;
  filters: MatchFilters;
  waitedMs: number;
}

// Filters and ids are not personal data (no name, place or contact); the feedback text is the writer's own words.
export type MatchPaired = DomainEvent<
  'MatchPaired',
  { matchId: string; sides: [MatchSide, MatchSide]; pairedAt: string }
>;
/** `endedBy` is null when nobody chose to end it (a connection lost past the grace period). */
export type MatchEnded = DomainEvent<
  'MatchEnded',
  { matchId: string; endedBy: string | null; reason: MatchEndReason; durationMs: number }
>;
/** The call's media goes through the SFU from now on (who relayed it and why, for audit). */
export type MatchRelayed = DomainEvent<'MatchRelayed', { matchId: string; reason: RelayReason; sfuNode: string }>;
/**
 * The server took a frame of `userId`'s video in this call (report evidence). The JPEG itself is kept
 * outside the log (`file`), named by its SHA-256 so anyone can check it was not changed since.
 */
export type SnapshotTaken = DomainEvent<
  'SnapshotTaken',
  {
    matchId: string;
    snapshotId: string;
    userId: string;
    requestedBy: string;
    sha256: string;
    width: number;
    height: number;
    bytes: number;
    file: string;
    takenAt: string;
  }
>;
export type FeedbackGiven = DomainEvent<
  'FeedbackGiven',
  { matchId: string; userId: string; rating: number; additionalInformation: string }
>;

export type MatchEvent = MatchPaired | MatchEnded | MatchRelayed | SnapshotTaken | FeedbackGiven;

export const matchStream = (matchId: string) => `matching-match-${matchId}`;

export const matchEventSchemas: EventSchema[] = [
  { type: 'MatchPaired', schemaVersion: 1 },
  { type: 'MatchEnded', schemaVersion: 1 },
  { type: 'MatchRelayed', schemaVersion: 1 },
  { type: 'SnapshotTaken', schemaVersion: 1 },
  {
    type: 'FeedbackGiven',
    schemaVersion: 1,
    subject: (d) => d.userId as string,
    personal: ['additionalInformation'],
  },
] as EventSchema[];
