import { type Kysely, sql } from 'kysely';

/**
 * Identity's short-lived security plumbing, kept out of the event log (DESIGN.md): sessions and their rotating
 * refresh tokens, one-time e-mail tokens and sign-in codes, and the e-mail index that makes addresses unique.
 * Every secret is stored as a SHA-256 hash: a copy of these tables signs no one in.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('account_emails')
    .addColumn('email_lower', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().unique())
    .execute();

  await db.schema
    .createTable('auth_sessions')
    .addColumn('session_id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('ended_at', 'timestamptz')
    .addColumn('end_reason', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('auth_sessions_user').on('auth_sessions').column('user_id').execute();

  // Every refresh token a session ever had: the live one (rotated_at null) and the rotated ones, whose reuse
  // means the token was stolen and ends the session.
  await db.schema
    .createTable('auth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'uuid', (c) => c.notNull().references('auth_sessions.session_id').onDelete('cascade'))
    .addColumn('rotated_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_email_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose in ('verify-email', 'reset-password')`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('auth_login_challenges')
    .addColumn('challenge_id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'auth_login_challenges',
    'auth_email_tokens',
    'auth_refresh_tokens',
    'auth_sessions',
    'account_emails',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
