import { sql } from 'kysely';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';

/**
 * The fields of other contexts' events the overview reads (DESIGN.md "Conventions": an event's type and data are a
 * published contract, so the admin context projects them by type name and imports none of their code).
 */
interface Paired {
  matchId: string;
  sides: { waitedMs?: number }[];
  pairedAt: string;
}
interface Relayed {
  matchId: string;
}
interface Ended {
  matchId: string;
  durationMs: number;
}
interface Filed {
  filedAt?: string;
}
interface Banned {
  bannedAt?: string;
}

/** Which context's stream an event type is read from: a type of the same name elsewhere is not ours. */
const HANDLED: Record<string, string> = {
  MatchPaired: 'matching-match-',
  MatchRelayed: 'matching-match-',
  MatchEnded: 'matching-match-',
  ReportFiled: 'moderation-report-',
  ContentReportFiled: 'moderation-report-',
  UserBanned: 'moderation-',
};

const hourOf = (at: string) => {
  const hour = new Date(at);
  hour.setUTCMinutes(0, 0, 0);
  return hour.toISOString();
};
const dayOf = (at: string) => new Date(at).toISOString().slice(0, 10);

/**
 * The overview's charts (spec 2 "Admin dashboard"): calls paired and relayed per hour, each call's wait and length,
 * reports and bans per day. Counts are added, so a replay must not apply an event twice: the engine applies each event
 * once, in the transaction that moves this projection's checkpoint past it; the relayed count goes up only on a call's
 * first MatchRelayed (a call may be relayed again after its SFU room is lost).
 */
export const overviewStatsProjection: Projection = {
  name: 'admin.overview-stats',

  canHandle: (event) => {
    const prefix = HANDLED[event.type];
    return prefix !== undefined && event.streamId.startsWith(prefix);
  },

  async apply(trx, event: RecordedEvent) {
    const at = event.metadata.occurredAt;
    switch (event.type) {
      case 'MatchPaired': {
        const data = event.data as Paired;
        const waits = data.sides.map((side) => side.waitedMs ?? 0);
        const inserted = await trx
          .insertInto('dash_calls')
          .values({ match_id: data.matchId, paired_at: data.pairedAt, wait_ms: Math.round(Math.max(0, ...waits)) })
          .onConflict((c) => c.column('match_id').doNothing())
          .returning('match_id')
          .executeTakeFirst();
        if (inserted) await bumpHour(trx, hourOf(data.pairedAt), 'paired');
        return;
      }
      case 'MatchRelayed': {
        const data = event.data as Relayed;
        const flipped = await trx
          .updateTable('dash_calls')
          .set({ relayed: true })
          .where('match_id', '=', data.matchId)
          .where('relayed', '=', false)
          .returning('paired_at')
          .executeTakeFirst();
        if (flipped) await bumpHour(trx, hourOf(new Date(flipped.paired_at).toISOString()), 'relayed');
        return;
      }
      case 'MatchEnded': {
        const data = event.data as Ended;
        await trx
          .updateTable('dash_calls')
          .set({ ended_at: at, duration_ms: Math.max(0, Math.round(data.durationMs)) })
          .where('match_id', '=', data.matchId)
          .execute();
        return;
      }
      case 'ReportFiled':
      case 'ContentReportFiled':
        await bumpDay(trx, dayOf((event.data as Filed).filedAt ?? at), 'reports');
        return;
      case 'UserBanned':
        await bumpDay(trx, dayOf((event.data as Banned).bannedAt ?? at), 'bans');
        return;
    }
  },

  async reset(trx) {
    await sql`truncate dash_calls, dash_call_hours, dash_moderation_days`.execute(trx);
  },
};

type Trx = Parameters<Projection['apply']>[0];

async function bumpHour(trx: Trx, hour: string, column: 'paired' | 'relayed') {
  await trx
    .insertInto('dash_call_hours')
    .values({ hour, [column]: 1 })
    .onConflict((c) => c.column('hour').doUpdateSet({ [column]: sql`dash_call_hours.${sql.ref(column)} + 1` }))
    .execute();
}

async function bumpDay(trx: Trx, day: string, column: 'reports' | 'bans') {
  await trx
    .insertInto('dash_moderation_days')
    .values({ day, [column]: 1 })
    .onConflict((c) => c.column('day').doUpdateSet({ [column]: sql`dash_moderation_days.${sql.ref(column)} + 1` }))
    .execute();
}
