import { type Kysely, sql } from 'kysely';

/**
 * Presence per user (spec 4 "Presence", spec 7 onlineUsers): each node's row for a user now says whether any of the
 * user's sockets there is in sight (`status`: 'online', or 'away' when every one of them is hidden), from which kind of
 * device (`device`: the handshake's), and since when (`changed_at`, so across nodes the latest says the device). No
 * name is kept here: the admins' list asks identity's directory for first names.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('online_users')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('online'))
    .addColumn('device', 'text', (c) => c.notNull().defaultTo('desktop'))
    .addColumn('changed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('online_users')
    .dropColumn('status')
    .dropColumn('device')
    .dropColumn('changed_at')
    .execute();
}
