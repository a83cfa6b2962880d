import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { plain } from '../../platform/personal-data/personal-data-vault.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { StandingEvent } from '../domain/standing.events.js';

const HANDLED = new Set<string>([
  'UserBanned',
  'UserWarned',
  'UserUnbanned',
  'BanExpired',
  'BanAppealed',
  'AppealResolved',
]);

/**
 * `moderation_bans`: each ban (case) as the banned screen, the ban history and the admins read it, and
 * `moderation_warnings`: each warning (a violation on the record without a restriction), (Ozone's subject
 * status: a projection of the moderation events on one subject).
 */
export const bansProjection: Projection = {
  name: 'moderation.bans',

  canHandle: (event) => HANDLED.has(event.type),

  async apply(trx, recorded: RecordedEvent) {
    const event = recorded as unknown as StandingEvent;
    const at = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'UserBanned': {
        const d = event.data;
        await trx
          .insertInto('moderation_bans')
          .values({
            case_id: d.caseId,
            user_id: d.userId,
            reason: plain(d.reason) ?? '',
            level: d.level,
            banned_by: d.bannedBy,
            banned_at: d.bannedAt,
            expires_at: d.expiresAt,
            suggestion: d.choice.suggestion,
            override_reason: plain(d.overrideReason),
            report_id: d.reportId ?? null,
          })
          .onConflict((c) => c.column('case_id').doNothing())
          .execute();
        return;
      }
      case 'UserWarned': {
        const d = event.data;
        await trx
          .insertInto('moderation_warnings')
          .values({
            case_id: d.caseId,
            user_id: d.userId,
            reason: plain(d.reason) ?? '',
            level: d.level,
            warned_by: d.warnedBy,
            warned_at: d.warnedAt,
            report_id: d.reportId,
          })
          .onConflict((c) => c.column('case_id').doNothing())
          .execute();
        return;
      }
      case 'UserUnbanned':
        await trx
          .updateTable('moderation_bans')
          .set({ ended_at: at, ended_how: 'unbanned', ended_by: event.data.by })
          .where('case_id', '=', event.data.caseId)
          .where('ended_at', 'is', null)
          .execute();
        return;
      case 'BanExpired':
        await trx
          .updateTable('moderation_bans')
          .set({ ended_at: at, ended_how: 'expired' })
          .where('case_id', '=', event.data.caseId)
          .where('ended_at', 'is', null)
          .execute();
        return;
      case 'BanAppealed':
        await trx
          .updateTable('moderation_bans')
          .set({ appeal_status: 'pending', appeal_explanation: plain(event.data.explanation), appealed_at: at })
          .where('case_id', '=', event.data.caseId)
          .execute();
        return;
      case 'AppealResolved': {
        const { caseId, outcome, by, note } = event.data;
        await trx
          .updateTable('moderation_bans')
          .set({ appeal_status: outcome, appeal_decided_at: at, appeal_decided_by: by, appeal_note: plain(note) })
          .where('case_id', '=', caseId)
          .execute();
        if (outcome === 'approved') {
          await trx
            .updateTable('moderation_bans')
            .set({ ended_at: at, ended_how: 'appeal-approved', ended_by: by })
            .where('case_id', '=', caseId)
            .where('ended_at', 'is', null)
            .execute();
        }
        return;
      }
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await sql`truncate moderation_bans, moderation_warnings`.execute(trx);
  },
};
