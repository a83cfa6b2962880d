import { toIsoDate } from '../accounts/user-info.js';
import { Inject, Injectable } from '@nestjs/common';
import type { Role } from '@serendip/proto';
import { sql } from 'kysely';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { isUuid } from '../../platform/shared/ids.js';

/** A row of the dashboard's user list, as identity knows it (the ban status is moderation's). */
export interface StaffUserRow {
  userId: string;
  firstName: string | null;
  lastName: string | null;
  username: string | null;
  avatar: string | null;
  country: string | null;
  role: Role;
  registeredAt: Date;
  deletedAt: Date | null;
  emailAddress: string;
}

export interface StaffUserProfile extends StaffUserRow {
  gender: 'male' | 'female' | null;
  birthDate: string | null;
  city: string | null;
  bio: string | null;
  phoneNumber: string | null;
  twoFactorEnabled: boolean;
  emailVerified: boolean;
  profileCompleted: boolean;
}

export interface StaffSessionRow {
  sessionId: string;
  userAgent: string | null;
  ip: string | null;
  country: string | null;
  city: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  endedAt: Date | null;
  endReason: string | null;
}

/** How many sessions the dashboard shows (newest first): a year of daily logins is not one page. */
const SESSIONS_SHOWN = 50;

/**
 * What the dashboard's user management reads of identity (spec 2 "Admin dashboard"): the user list, searched and
 * paged in SQL over the `users` read model's prefix indexes (migration 0020), a person's profile and their sessions.
 * Callers decide what of it a moderator may see (e-mail addresses and IPs are for admins only).
 */
@Injectable()
export class StaffUserDirectory {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  /**
   * Newest accounts first. `search` matches the start of the first name, last name, "first last", or username; and,
   * with `byEmail` (admins), of the e-mail address.
   */
  async list(options: {
    search: string;
    byEmail: boolean;
    offset: number;
    limit: number;
  }): Promise<{ rows: StaffUserRow[]; total: number }> {
    const term = options.search.trim().toLowerCase();
    // LIKE's own characters in the term match themselves.
    const prefix = `${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    let query = this.db.selectFrom('users');
    if (term) {
      query = query.where((eb) =>
        eb.or([
          eb(sql`lower(first_name)`, 'like', prefix),
          eb(sql`lower(last_name)`, 'like', prefix),
          eb(sql`lower(first_name || ' ' || last_name)`, 'like', prefix),
          eb(sql`lower(username)`, 'like', prefix),
          ...(options.byEmail ? [eb(sql`lower(email_address)`, 'like', prefix)] : []),
        ]),
      );
    }
    const [rows, count] = await Promise.all([
      query
        .select([
          'user_id',
          'first_name',
          'last_name',
          'username',
          'avatar_url',
          'country',
          'role',
          'registered_at',
          'deleted_at',
          'email_address',
        ])
        .orderBy('registered_at', 'desc')
        .orderBy('user_id')
        .offset(options.offset)
        .limit(options.limit)
        .execute(),
      query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows: rows.map(toRow), total: Number(count.n) };
  }

  async profile(userId: string): Promise<StaffUserProfile | undefined> {
    if (!isUuid(userId)) return undefined;
    const row = await this.db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return undefined;
    return {
      ...toRow(row),
      gender: row.gender,
      birthDate: row.birth_date ? toIsoDate(row.birth_date) : null,
      city: row.city,
      bio: row.bio,
      phoneNumber: row.phone_number,
      twoFactorEnabled: row.two_factor_enabled,
      emailVerified: row.email_verified,
      profileCompleted: row.is_finished_steps,
    };
  }

  /** The person's sessions, newest first (ended ones too: they are part of the record). */
  async sessions(userId: string): Promise<StaffSessionRow[]> {
    const rows = await this.db
      .selectFrom('auth_sessions')
      .select([
        'session_id',
        'user_agent',
        'ip',
        'country',
        'city',
        'created_at',
        'last_used_at',
        'ended_at',
        'end_reason',
      ])
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .limit(SESSIONS_SHOWN)
      .execute();
    return rows.map((r) => ({
      sessionId: r.session_id,
      userAgent: r.user_agent,
      ip: r.ip,
      country: r.country,
      city: r.city,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
      endedAt: r.ended_at,
      endReason: r.end_reason,
    }));
  }
}

function toRow(row: {
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  username: string | null;
  avatar_url: string | null;
  country: string | null;
  role: Role;
  registered_at: Date;
  deleted_at: Date | null;
  email_address: string;
}): StaffUserRow {
  return {
    userId: row.user_id,
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    avatar: row.avatar_url,
    country: row.country,
    role: row.role,
    registeredAt: row.registered_at,
    deletedAt: row.deleted_at,
    emailAddress: row.email_address,
  };
}
