import type { ViolationLevel } from '@serendip/proto';
import { type Decider, DomainError, invalidField } from '../../platform/cqrs/decider.js';
import { type RecordedViolation, suggestPenalty } from './penalty-policy.js';
import type { AppealStatus, StandingEvent } from './standing.events.js';

/** What an admin decides: a warning (on the record, no restriction), a restriction of some days, or a permanent ban. */
export type Penalty = { kind: 'warning' } | { kind: 'restriction'; days: number } | { kind: 'permanent' };

export type StandingCommand =
  | {
      type: 'BanUser';
      caseId: string;
      userId: string;
      reason: string;
      level: ViolationLevel;
      penalty: Penalty;
      /** Needed when the penalty is not the policy's suggestion. */
      overrideReason?: string;
      reportId?: string | null;
    }
  | { type: 'UnbanUser'; caseId: string; reason: string }
  | { type: 'ExpireBan'; caseId: string }
  | { type: 'AppealBan'; caseId: string; explanation: string }
  | { type: 'ResolveAppeal'; caseId: string; outcome: 'approved' | 'rejected'; note: string };

export interface ActiveBan {
  caseId: string;
  expiresAt: number | null;
  appeal: AppealStatus;
}

export interface StandingState {
  userId: string | null;
  ban: ActiveBan | null;
  /** Every violation decided, with whether it still stands (the penalty tiers count these). */
  record: (RecordedViolation & { caseId: string })[];
  /** Cases whose appeal was used: one appeal per ban (spec 4 "Appeal"), even after it ends. */
  appealed: string[];
}

const APPEAL_MAX_LENGTH = 2000;
const DAY_MS = 86_400_000;

const noBan = (caseId: string) =>
  new DomainError('no-such-ban', `No active ban with case ${caseId}`, { kind: 'not-found' });

/**
 * A user's standing (spec 3 "Ban record", 4 "Ban", "Appeal"): at most one ban at a time; it ends by expiry, an
 * unban or an approved appeal; one appeal per ban. The penalty an admin picks is compared with the published
 * policy's suggestion (penalty-policy.ts), and a different one needs a stated reason.
 */
export const standing: Decider<StandingCommand, StandingState, StandingEvent> = {
  initialState: { userId: null, ban: null, record: [], appealed: [] },

  evolve(state, event) {
    switch (event.type) {
      case 'UserBanned': {
        const { caseId, userId, level, bannedAt, expiresAt } = event.data;
        return {
          ...state,
          userId,
          ban: { caseId, expiresAt: expiresAt ? Date.parse(expiresAt) : null, appeal: 'none' },
          record: [...state.record, { caseId, level, decidedAt: new Date(bannedAt), reversed: false }],
        };
      }
      case 'UserWarned': {
        const { caseId, userId, level, warnedAt } = event.data;
        return {
          ...state,
          userId,
          record: [...state.record, { caseId, level, decidedAt: new Date(warnedAt), reversed: false }],
        };
      }
      case 'UserUnbanned':
      case 'BanExpired':
        return state.ban?.caseId === event.data.caseId ? { ...state, ban: null } : state;
      case 'BanAppealed':
        return {
          ...state,
          appealed: [...state.appealed, event.data.caseId],
          ban: state.ban?.caseId === event.data.caseId ? { ...state.ban, appeal: 'pending' } : state.ban,
        };
      case 'AppealResolved': {
        const { caseId, outcome } = event.data;
        const approved = outcome === 'approved';
        return {
          ...state,
          ban: state.ban?.caseId === caseId ? (approved ? null : { ...state.ban, appeal: 'rejected' }) : state.ban,
          record: approved
            ? state.record.map((v) => (v.caseId === caseId ? { ...v, reversed: true } : v))
            : state.record,
        };
      }
    }
  },

  decide(command, state, { now, actor }) {
    switch (command.type) {
      case 'BanUser': {
        const { penalty } = command;
        if (state.ban && penalty.kind !== 'warning') {
          throw new DomainError('already-banned', `This account is already banned (case ${state.ban.caseId})`, {
            kind: 'conflict',
          });
        }
        const reason = command.reason.trim();
        if (!reason) throw invalidField('reason', 'must say why the account is banned', 'reason-missing');
        if (penalty.kind === 'restriction' && !(Number.isInteger(penalty.days) && penalty.days >= 1)) {
          throw invalidField('days', 'must be a whole number of days, at least 1', 'days-invalid');
        }
        const suggestion = suggestPenalty(state.record, command.level, now);
        const followed =
          (suggestion.kind === 'warning' && penalty.kind === 'warning') ||
          (suggestion.kind === 'permanent' && penalty.kind === 'permanent') ||
          (suggestion.kind === 'restriction' && penalty.kind === 'restriction' && penalty.days === suggestion.days);
        const overrideReason = command.overrideReason?.trim() || null;
        if (!followed && !overrideReason) {
          throw invalidField(
            'overrideReason',
            `must say why, as the policy suggests otherwise (${suggestion.explanation})`,
            'override-reason-missing',
          );
        }
        const choice = { suggestedTier: suggestion.tier, suggestion: suggestion.explanation };
        if (penalty.kind === 'warning') {
          return [
            {
              type: 'UserWarned',
              data: {
                caseId: command.caseId,
                userId: command.userId,
                reason,
                level: command.level,
                warnedBy: actor,
                warnedAt: now.toISOString(),
                choice,
                overrideReason: followed ? null : overrideReason,
                reportId: command.reportId ?? null,
              },
            },
          ];
        }
        return [
          {
            type: 'UserBanned',
            data: {
              caseId: command.caseId,
              userId: command.userId,
              reason,
              level: command.level,
              bannedBy: actor,
              bannedAt: now.toISOString(),
              expiresAt:
                penalty.kind === 'permanent' ? null : new Date(now.getTime() + penalty.days * DAY_MS).toISOString(),
              choice,
              overrideReason: followed ? null : overrideReason,
              reportId: command.reportId ?? null,
            },
          },
        ];
      }
      case 'UnbanUser': {
        if (state.ban?.caseId !== command.caseId) throw noBan(command.caseId);
        const reason = command.reason.trim();
        if (!reason) throw invalidField('reason', 'must say why the ban is lifted', 'reason-missing');
        return [{ type: 'UserUnbanned', data: { caseId: command.caseId, userId: state.userId!, by: actor, reason } }];
      }
      case 'ExpireBan': {
        // Asked by a scheduled check that may run twice, or late: only a ban that is still on and past its expiry.
        const ban = state.ban;
        if (ban?.caseId !== command.caseId || ban.expiresAt === null || ban.expiresAt > now.getTime()) return [];
        return [{ type: 'BanExpired', data: { caseId: ban.caseId, userId: state.userId! } }];
      }
      case 'AppealBan': {
        if (state.ban?.caseId !== command.caseId) throw noBan(command.caseId);
        if (state.appealed.includes(command.caseId)) {
          throw new DomainError('already-appealed', 'This ban was already appealed', { kind: 'conflict' });
        }
        const explanation = command.explanation.trim();
        // spec 5: a blank explanation is refused.
        if (!explanation) throw invalidField('appealExplanation', 'Please provide a reason for your appeal.', 'blank');
        if (explanation.length > APPEAL_MAX_LENGTH) {
          throw invalidField('appealExplanation', `must be at most ${APPEAL_MAX_LENGTH} characters`, 'too-long');
        }
        return [{ type: 'BanAppealed', data: { caseId: command.caseId, userId: state.userId!, explanation } }];
      }
      case 'ResolveAppeal': {
        if (state.ban?.caseId !== command.caseId || state.ban.appeal !== 'pending') {
          throw new DomainError('no-pending-appeal', `No pending appeal for case ${command.caseId}`, {
            kind: 'not-found',
          });
        }
        const note = command.note.trim();
        if (!note) throw invalidField('note', 'must say what the review found', 'note-missing');
        return [
          {
            type: 'AppealResolved',
            data: { caseId: command.caseId, userId: state.userId!, outcome: command.outcome, by: actor, note },
          },
        ];
      }
    }
  },
};
