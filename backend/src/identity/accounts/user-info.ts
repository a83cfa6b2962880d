import type { UserInfo } from '@serendip/proto';
import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import type { AccountStanding } from '../public/account-standing.js';
import { ageOn } from '../domain/account.decider.js';

/** The signed-in user's own view (spec 3), from the `users` read model: never hashes, tokens or others' data. */
export async function readUserInfo(
  db: Kysely<Database>,
  standing: AccountStanding,
  userId: string,
  now: Date,
): Promise<UserInfo | undefined> {
  const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row || row.deleted_at) return undefined;
  const birthDate = row.birth_date ? toIsoDate(row.birth_date) : null;
  return {
    _id: row.user_id,
    emailAddress: row.email_address,
    emailVerified: row.email_verified,
    firstName: row.first_name,
    lastName: row.last_name,
    username: row.username,
    gender: row.gender,
    userBirthDate: birthDate,
    userAge: birthDate ? ageOn(birthDate, now) : null,
    phoneNumber: row.phone_number,
    bio: row.bio,
    avatar: row.avatar_url,
    country: row.country,
    city: row.city,
    isAdmin: row.role === 'admin',
    role: row.role,
    isBanned: await standing.isRestricted(row.user_id, now),
    twoFactorEnabled: row.two_factor_enabled,
    hideIp: row.hide_ip,
    isFinishedSteps: row.is_finished_steps,
    isFirstSteps: false,
  };
}

// pg returns a `date` column as a local-time Date; its calendar day is what was stored.
export function toIsoDate(value: string | Date): string {
  if (typeof value === 'string') return value.slice(0, 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
}
