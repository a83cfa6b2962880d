import type { ViolationLevel } from '@serendip/proto';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/** A user's moderation stream (after Ozone's subject status): every ban, expiry, appeal and reversal of one account. */
export const standingStream = (userId: string) => `moderation-${userId}`;

export type AppealStatus = 'none' | 'pending' | 'approved' | 'rejected';

/** What the policy suggested when the penalty was decided, so an audit sees where an admin chose otherwise. */
export interface PenaltyChoice {
  suggestedTier: 1 | 2 | 3 | 4;
  suggestion: string;
}

// The reason, the appeal's explanation and the notes are the moderator's and the user's own words about a person:
// they are sealed as personal data where the events are registered (DESIGN.md "Personal data").
export type UserBanned = DomainEvent<
  'UserBanned',
  {
    caseId: string;
    userId: string;
    reason: string;
    level: ViolationLevel;
    bannedBy: string;
    bannedAt: string;
    /** null: permanent. */
    expiresAt: string | null;
    choice: PenaltyChoice;
    /** The admin's reason for a penalty other than the suggestion (words about the person: sealed); null if followed. */
    overrideReason: string | null;
    /** The report the ban acts on; absent (read as null) when an admin banned without one. */
    reportId?: string | null;
  }
>;
/** A warning: the violation goes on the record (it counts toward the tiers), with no restriction. */
export type UserWarned = DomainEvent<
  'UserWarned',
  {
    caseId: string;
    userId: string;
    reason: string;
    level: ViolationLevel;
    warnedBy: string;
    warnedAt: string;
    choice: PenaltyChoice;
    overrideReason: string | null;
    reportId: string | null;
  }
>;
export type UserUnbanned = DomainEvent<'UserUnbanned', { caseId: string; userId: string; by: string; reason: string }>;
export type BanExpired = DomainEvent<'BanExpired', { caseId: string; userId: string }>;
export type BanAppealed = DomainEvent<'BanAppealed', { caseId: string; userId: string; explanation: string }>;
/** An approved appeal lifts the ban and takes its violation off the record (it no longer counts toward the tiers). */
export type AppealResolved = DomainEvent<
  'AppealResolved',
  { caseId: string; userId: string; outcome: 'approved' | 'rejected'; by: string; note: string }
>;

export type StandingEvent = UserBanned | UserWarned | UserUnbanned | BanExpired | BanAppealed | AppealResolved;

const subject = (d: Record<string, unknown>) => d.userId as string;

/**
 * The moderator's reasons and the user's appeal are words about a person: sealed as that user's personal data, so
 * they are erased with the account (the ids, dates, levels and outcomes stay for the audit).
 */
export const standingEventSchemas: EventSchema[] = [
  { type: 'UserBanned', schemaVersion: 1, subject, personal: ['reason', 'overrideReason'] },
  { type: 'UserWarned', schemaVersion: 1, subject, personal: ['reason', 'overrideReason'] },
  { type: 'UserUnbanned', schemaVersion: 1, subject, personal: ['reason'] },
  { type: 'BanExpired', schemaVersion: 1 },
  { type: 'BanAppealed', schemaVersion: 1, subject, personal: ['explanation'] },
  { type: 'AppealResolved', schemaVersion: 1, subject, personal: ['note'] },
];
