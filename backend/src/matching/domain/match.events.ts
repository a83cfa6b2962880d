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
/**
 * `endedBy`: who ended it, or for 'ban' the banned side; null when nobody chose to end it (a connection lost past the
 * grace period).
 */
export type MatchEnded = DomainEvent<
  'MatchEnded',
  { matchId: string; endedBy: string | null; reason: MatchEndReason; durationMs: number }
>;
/** The call's media goes through the SFU from now on (who relayed it and why, for audit). */
export type MatchRelayed = DomainEvent<'MatchRelayed', { matchId: string; reason: RelayReason; sfuNode: string }>;
/**
 * The server took a frame of `userId`'s video in this call (report evidence). The JPEG itself is kept
 * outside the log (`file`), named by its SHA-256 so anyone can check it was not changed since. It is taken for a
 * report (`reportId`) or a reason the admin states; schema version 1 had neither (upcast to null).
 */
export type SnapshotTaken = DomainEvent<
  'SnapshotTaken',
  {
    matchId: string;
    snapshotId: string;
    userId: string;
    requestedBy: string;
    reason: string | null;
    reportId: string | null;
    sha256: string;
    width: number;
    height: number;
    bytes: number;
    file: string;
    takenAt: string;
  }
>;
/** Someone was shown the snapshot (its bytes matched its SHA-256): every look at evidence is on record. */
export type SnapshotViewed = DomainEvent<'SnapshotViewed', { matchId: string; snapshotId: string; viewedBy: string }>;
/** An open case keeps the snapshot past its retention and its subject's account deletion, until it lets go. */
export type SnapshotHeld = DomainEvent<'SnapshotHeld', { matchId: string; snapshotId: string; caseId: string }>;
export type SnapshotReleased = DomainEvent<'SnapshotReleased', { matchId: string; snapshotId: string; caseId: string }>;
export type SnapshotDeletionReason = 'retention' | 'account-deleted';
/** The JPEG is gone; what the log says of it (ids, checksum, who looked) stays. */
export type SnapshotDeleted = DomainEvent<
  'SnapshotDeleted',
  { matchId: string; snapshotId: string; userId: string; reason: SnapshotDeletionReason }
>;
/**
 * Someone reported the other side of this call (`reportId`, moderation's): these two are never paired again, whoever
 * searches first (DESIGN.md "Matching": the matchmaker excludes anyone either side reported). Reporter first.
 */
export type PairSeparated = DomainEvent<
  'PairSeparated',
  { matchId: string; userIds: [string, string]; reportId: string }
>;
export type FeedbackGiven = DomainEvent<
  'FeedbackGiven',
  { matchId: string; userId: string; rating: number; additionalInformation: string }
>;

export type SnapshotEvent = SnapshotTaken | SnapshotViewed | SnapshotHeld | SnapshotReleased | SnapshotDeleted;

export type MatchEvent = MatchPaired | MatchEnded | MatchRelayed | SnapshotEvent | PairSeparated | FeedbackGiven;

export const matchStream = (matchId: string) => `matching-match-${matchId}`;

export const matchEventSchemas: EventSchema[] = [
  { type: 'MatchPaired', schemaVersion: 1 },
  { type: 'MatchEnded', schemaVersion: 1 },
  { type: 'MatchRelayed', schemaVersion: 1 },
  // The stated reason speaks of the person filmed: their personal data, erased with their account.
  {
    type: 'SnapshotTaken',
    schemaVersion: 2,
    subject: (d) => d.userId as string,
    personal: ['reason'],
    // Version 1 was taken before a snapshot named its report or the admin's reason.
    upcasters: { 1: (d) => ({ ...d, reason: d.reason ?? null, reportId: d.reportId ?? null }) },
  },
  { type: 'SnapshotViewed', schemaVersion: 1 },
  { type: 'SnapshotHeld', schemaVersion: 1 },
  { type: 'SnapshotReleased', schemaVersion: 1 },
  { type: 'SnapshotDeleted', schemaVersion: 1 },
  { type: 'PairSeparated', schemaVersion: 1 },
  {
    type: 'FeedbackGiven',
    schemaVersion: 1,
    subject: (d) => d.userId as string,
    personal: ['additionalInformation'],
  },
] as EventSchema[];
