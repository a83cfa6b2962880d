import { type Kysely, sql } from 'kysely';

/**
 * When each address was claimed (an address never confirmed is released after a day, spec 1 "Accounts"), and the
 * browsers each account signed in from (a known device keeps its own count of failed logins, so failures from
 * elsewhere cannot lock the owner out). Device tokens are stored as SHA-256 hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('account_emails')
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('auth_known_devices')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('auth_known_devices_user').on('auth_known_devices').column('user_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auth_known_devices').execute();
  await db.schema.alterTable('account_emails').dropColumn('claimed_at').execute();
}
