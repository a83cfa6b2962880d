import type { Kysely } from 'kysely';

/**
 * spec 6 Admin: staff reach the dashboard only from a session started with the mailed sign-in code, not from one a
 * password alone began (turning two-factor login on afterwards does not change how that session began). Sessions
 * already open say false: their staff sign in again with the code.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('auth_sessions')
    .addColumn('signed_in_with_code', 'boolean', (col) => col.notNull().defaultTo(false))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_sessions').dropColumn('signed_in_with_code').execute();
}
