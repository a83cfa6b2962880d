import { z } from 'zod/mini';
import type { IntegrationEvent } from './integration-event.js';

/**
 * An account was banned (moderation context): its calls end at once and it cannot match until the ban ends (matching
 * ends them on every node). Ids and dates only: the reason stays in moderation, sealed.
 */
export const userBannedDataSchema = z.object({
  userId: z.string().check(z.minLength(1)),
  caseId: z.string().check(z.minLength(1)),
  /** null: permanent. */
  expiresAt: z.nullable(z.string()),
});
export type UserBannedEvent = IntegrationEvent<'UserBanned', z.infer<typeof userBannedDataSchema>>;

/** A ban ended: it expired, was lifted, or its appeal was approved. */
export const banEndedDataSchema = z.object({
  userId: z.string().check(z.minLength(1)),
  caseId: z.string().check(z.minLength(1)),
  how: z.enum(['expired', 'unbanned', 'appeal-approved']),
});
export type BanEndedEvent = IntegrationEvent<'BanEnded', z.infer<typeof banEndedDataSchema>>;

/**
 * Someone reported the other side of a call (moderation context). Matching keeps the two apart for good: they are
 * never paired again.
 */
export const reportFiledDataSchema = z.object({
  reportId: z.string().check(z.minLength(1)),
  matchId: z.string().check(z.minLength(1)),
  reporterId: z.string().check(z.minLength(1)),
  reportedId: z.string().check(z.minLength(1)),
});
export type ReportFiledEvent = IntegrationEvent<'ReportFiled', z.infer<typeof reportFiledDataSchema>>;

/**
 * A report was acted on: the reported user was banned or warned because of it. To tell the reporter (notifications),
 * who knows whom they reported: the reported user is not named here.
 */
export const reportActionedDataSchema = z.object({
  reportId: z.string().check(z.minLength(1)),
  reporterId: z.string().check(z.minLength(1)),
});
export type ReportActionedEvent = IntegrationEvent<'ReportActioned', z.infer<typeof reportActionedDataSchema>>;

/** An appeal was decided (an approved one also ends the ban: BanEnded with how 'appeal-approved'). */
export const appealDecidedDataSchema = z.object({
  userId: z.string().check(z.minLength(1)),
  caseId: z.string().check(z.minLength(1)),
  outcome: z.enum(['approved', 'rejected']),
});
export type AppealDecidedEvent = IntegrationEvent<'AppealDecided', z.infer<typeof appealDecidedDataSchema>>;

export type ModerationIntegrationEvent =
  UserBannedEvent | BanEndedEvent | ReportFiledEvent | ReportActionedEvent | AppealDecidedEvent;
