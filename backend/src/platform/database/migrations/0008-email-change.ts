import { type Kysely, sql } from 'kysely';

/**
 * An e-mail change waits for a link mailed to the new address; its token remembers that address (the row
 * goes with the token's use, and the table holds nothing else personal).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_email_tokens').addColumn('new_email', 'text').execute();
  await sql`alter table auth_email_tokens drop constraint if exists auth_email_tokens_purpose_check`.execute(db);
  await sql`alter table auth_email_tokens add constraint auth_email_tokens_purpose_check
    check (purpose in ('verify-email', 'reset-password', 'change-email'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from auth_email_tokens where purpose = 'change-email'`.execute(db);
  await sql`alter table auth_email_tokens drop constraint if exists auth_email_tokens_purpose_check`.execute(db);
  await sql`alter table auth_email_tokens add constraint auth_email_tokens_purpose_check
    check (purpose in ('verify-email', 'reset-password'))`.execute(db);
  await db.schema.alterTable('auth_email_tokens').dropColumn('new_email').execute();
}
