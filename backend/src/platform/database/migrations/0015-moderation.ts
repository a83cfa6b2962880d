import { type Kysely, sql } from 'kysely';

/**
 * moderation's read models (after Ozone's subject status: each a projection of moderation events): every ban with its
 * appeal and how it ended, every report with its evidence and review, and the screenshots uploaded for a report not
 * yet filed. identity's denylist of addresses of permanently banned accounts keeps a keyed hash only, never an address.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('moderation_bans')
    .addColumn('case_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('banned_by', 'text', (c) => c.notNull())
    .addColumn('banned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz')
    .addColumn('suggestion', 'text', (c) => c.notNull())
    .addColumn('override_reason', 'text')
    .addColumn('report_id', 'text')
    .addColumn('ended_at', 'timestamptz')
    .addColumn('ended_how', 'text')
    .addColumn('ended_by', 'text')
    .addColumn('appeal_status', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('appeal_explanation', 'text')
    .addColumn('appealed_at', 'timestamptz')
    .addColumn('appeal_decided_at', 'timestamptz')
    .addColumn('appeal_decided_by', 'text')
    .addColumn('appeal_note', 'text')
    .execute();
  await db.schema.createIndex('moderation_bans_user').on('moderation_bans').columns(['user_id', 'banned_at']).execute();
  // The scheduled expiry check reads only the bans still on with an expiry.
  await db.schema
    .createIndex('moderation_bans_running')
    .on('moderation_bans')
    .column('expires_at')
    .where(sql.ref('ended_at'), 'is', null)
    .execute();

  await db.schema
    .createTable('moderation_warnings')
    .addColumn('case_id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('level', 'text', (c) => c.notNull())
    .addColumn('warned_by', 'text', (c) => c.notNull())
    .addColumn('warned_at', 'timestamptz', (c) => c.notNull())
    .addColumn('report_id', 'text')
    .execute();
  await db.schema
    .createIndex('moderation_warnings_user')
    .on('moderation_warnings')
    .columns(['user_id', 'warned_at'])
    .execute();

  await db.schema
    .createTable('moderation_reports')
    .addColumn('report_id', 'text', (c) => c.primaryKey())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('reporter_id', 'text', (c) => c.notNull())
    .addColumn('reported_id', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('severity', 'text', (c) => c.notNull())
    .addColumn('details', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('screenshot_file', 'text')
    .addColumn('screenshot_sha256', 'text')
    .addColumn('snapshot_id', 'text')
    .addColumn('snapshot_sha256', 'text')
    .addColumn('filed_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('resolved_at', 'timestamptz')
    .addColumn('resolved_by', 'text')
    .addColumn('resolution_note', 'text')
    .addColumn('case_id', 'text')
    .execute();
  await db.schema
    .createIndex('moderation_reports_queue')
    .on('moderation_reports')
    .columns(['status', 'filed_at'])
    .execute();
  await db.schema.createIndex('moderation_reports_reported').on('moderation_reports').column('reported_id').execute();
  await db.schema.createIndex('moderation_reports_reporter').on('moderation_reports').column('reporter_id').execute();

  await db.schema
    .createTable('moderation_screenshot_uploads')
    .addColumn('screenshot_id', 'text', (c) => c.primaryKey())
    .addColumn('uploader_id', 'text', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('uploaded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('moderation_screenshot_uploads_uploader')
    .on('moderation_screenshot_uploads')
    .column('uploader_id')
    .execute();

  await db.schema
    .createTable('identity_barred_addresses')
    .addColumn('address_hmac', 'text', (c) => c.notNull())
    .addColumn('case_id', 'text', (c) => c.notNull())
    .addColumn('barred_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('identity_barred_addresses_pk', ['address_hmac', 'case_id'])
    .execute();
  await db.schema
    .createIndex('identity_barred_addresses_case')
    .on('identity_barred_addresses')
    .column('case_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('identity_barred_addresses').execute();
  await db.schema.dropTable('moderation_screenshot_uploads').execute();
  await db.schema.dropTable('moderation_reports').execute();
  await db.schema.dropTable('moderation_warnings').execute();
  await db.schema.dropTable('moderation_bans').execute();
}
