import type { Kysely } from 'kysely';

/** A user's "hide my IP" choice, and which calls went through the SFU (and why) for audit. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('hide_ip', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema
    .alterTable('matches')
    .addColumn('relay_reason', 'text')
    .addColumn('sfu_node', 'text')
    .addColumn('relayed_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('matches')
    .dropColumn('relay_reason')
    .dropColumn('sfu_node')
    .dropColumn('relayed_at')
    .execute();
  await db.schema.alterTable('users').dropColumn('hide_ip').execute();
}
