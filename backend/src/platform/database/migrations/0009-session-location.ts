import type { Kysely } from 'kysely';

/** Each session remembers where its address placed it (a local geo-IP lookup), for the device list. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').addColumn('country', 'text').addColumn('city', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('country').dropColumn('city').execute();
}
