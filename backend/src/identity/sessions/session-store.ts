import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import type { Place } from '../location/geo-ip.js';
import { hashSecret, newSecret } from './secrets.js';

export const SESSION_TTL_DAYS = 30;
/** How long a refresh token just replaced still buys an access token (two tabs refreshing at once). */
export const REFRESH_RACE_GRACE_MS = 10_000;

export type Rotation =
  | { outcome: 'rotated'; userId: string; sessionId: string; signedInWithCode: boolean; refreshToken: string }
  | { outcome: 'reused'; userId: string; sessionId: string; signedInWithCode: boolean }
  /** The token replaced a moment ago by the newest one, presented again by a second tab: not theft. */
  | { outcome: 'raced'; userId: string; sessionId: string; signedInWithCode: boolean }
  | { outcome: 'invalid' };

/** Sessions and their refresh tokens (plain tables: high churn, short life; their start and end are events). */
export class SessionStore {
  constructor(private readonly db: Kysely<Database>) {}

  async start(
    userId: string,
    device: { userAgent: string | null; ip: string | null },
    place: Place,
    signedInWithCode: boolean,
    now: Date,
  ) {
    const sessionId = randomUUID();
    const refreshToken = newSecret();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('auth_sessions')
        .values({
          session_id: sessionId,
          user_id: userId,
          expires_at: new Date(now.getTime() + SESSION_TTL_DAYS * 86_400_000),
          user_agent: device.userAgent?.slice(0, 512) ?? null,
          ip: device.ip,
          country: place.country,
          city: place.city,
          signed_in_with_code: signedInWithCode,
        })
        .execute();
      await trx
        .insertInto('auth_refresh_tokens')
        .values({ token_hash: hashSecret(refreshToken), session_id: sessionId, rotated_at: null })
        .execute();
    });
    return { sessionId, refreshToken };
  }

  /**
   * Trades a refresh token for a new one. A token already traded in comes back only if someone copied it:
   * the caller then ends the whole session (theft detection).
   */
  async rotate(refreshToken: string, now: Date): Promise<Rotation> {
    return this.db.transaction().execute(async (trx) => {
      const found = await trx
        .selectFrom('auth_refresh_tokens as t')
        .innerJoin('auth_sessions as s', 's.session_id', 't.session_id')
        .select([
          't.token_hash',
          't.rotated_at',
          's.session_id',
          's.user_id',
          's.ended_at',
          's.expires_at',
          's.signed_in_with_code',
        ])
        .where('t.token_hash', '=', hashSecret(refreshToken))
        .forUpdate()
        .executeTakeFirst();
      if (!found || found.ended_at || found.expires_at <= now) return { outcome: 'invalid' } as const;
      const rotatedAt = found.rotated_at;
      if (rotatedAt) {
        const session = {
          userId: found.user_id,
          sessionId: found.session_id,
          signedInWithCode: found.signed_in_with_code,
        };
        // Two tabs of one browser refreshing at once send the same token; the later one, within a few seconds of
        // its replacement, finds the new one already in the shared cookie jar and needs only an access token.
        const replacedBy = await trx
          .selectFrom('auth_refresh_tokens')
          .select('token_hash')
          .where('session_id', '=', found.session_id)
          .where((eb) => eb.or([eb('rotated_at', 'is', null), eb('rotated_at', '>', rotatedAt)]))
          .execute();
        const justReplaced =
          now.getTime() - rotatedAt.getTime() <= REFRESH_RACE_GRACE_MS &&
          replacedBy.length === 1 &&
          replacedBy[0]!.token_hash !== found.token_hash;
        return justReplaced
          ? ({ outcome: 'raced', ...session } as const)
          : ({ outcome: 'reused', ...session } as const);
      }
      const next = newSecret();
      await trx
        .updateTable('auth_refresh_tokens')
        .set({ rotated_at: now })
        .where('token_hash', '=', found.token_hash)
        .execute();
      await trx
        .insertInto('auth_refresh_tokens')
        .values({ token_hash: hashSecret(next), session_id: found.session_id, rotated_at: null })
        .execute();
      await trx
        .updateTable('auth_sessions')
        .set({ last_used_at: now })
        .where('session_id', '=', found.session_id)
        .execute();
      return {
        outcome: 'rotated',
        userId: found.user_id,
        sessionId: found.session_id,
        // A new token says how the session began, as its first did.
        signedInWithCode: found.signed_in_with_code,
        refreshToken: next,
      } as const;
    });
  }

  async isActive(sessionId: string, now: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('auth_sessions')
      .select(['ended_at', 'expires_at'])
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    return !!row && !row.ended_at && row.expires_at > now;
  }

  /** Ends a session; true if it was still active. */
  async end(sessionId: string, reason: string, now: Date): Promise<boolean> {
    const ended = await this.db
      .updateTable('auth_sessions')
      .set({ ended_at: now, end_reason: reason })
      .where('session_id', '=', sessionId)
      .where('ended_at', 'is', null)
      .executeTakeFirst();
    return Number(ended.numUpdatedRows) > 0;
  }

  /** The user's active sessions other than `keep` (all of them when keep is undefined). */
  async activeSessionsOf(userId: string, now: Date, keep?: string): Promise<string[]> {
    let query = this.db
      .selectFrom('auth_sessions')
      .select('session_id')
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now);
    if (keep) query = query.where('session_id', '!=', keep);
    return (await query.execute()).map((r) => r.session_id);
  }
}
