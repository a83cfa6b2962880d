import { type Kysely, sql } from 'kysely';

/** The identity read model behind GET /auth/user-info (spec 3 "User"). Rebuilt from the log at will. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('user_id', 'uuid', (c) => c.primaryKey())
    .addColumn('email_address', 'text', (c) => c.notNull())
    .addColumn('email_verified', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('username', 'text')
    .addColumn('gender', 'text', (c) => c.check(sql`gender in ('male', 'female')`))
    .addColumn('birth_date', 'date')
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('two_factor_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('is_finished_steps', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('registered_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('users_email')
    .on('users')
    .expression(sql`lower(email_address)`)
    .execute();
  await db.schema
    .createIndex('users_username')
    .on('users')
    .expression(sql`lower(username)`)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('users').execute();
}
