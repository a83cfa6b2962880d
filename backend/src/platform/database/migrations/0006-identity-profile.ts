import type { Kysely } from 'kysely';

/** identity's `users` read model learns the profile: phone, bio, avatar, location, and erasure. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('phone_number', 'text')
    .addColumn('bio', 'text')
    .addColumn('avatar_url', 'text')
    .addColumn('country', 'text')
    .addColumn('city', 'text')
    // Set when the account is deleted: the row stays (bans and reports point at it) with nothing personal left.
    .addColumn('deleted_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .dropColumn('phone_number')
    .dropColumn('bio')
    .dropColumn('avatar_url')
    .dropColumn('country')
    .dropColumn('city')
    .dropColumn('deleted_at')
    .execute();
}
