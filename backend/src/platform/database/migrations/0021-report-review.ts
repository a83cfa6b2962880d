import { type Kysely, sql } from 'kysely';

/**
 * The dashboard's report table and appeals queue (spec 2 "Reports page"): each report gets a stable number (the table's
 * `#`: in order of filing, the same after a rebuild of the read model), and the indexes its filters, newest-first
 * paging and the appeals queue read through (the benchmark pages 10,000 reports).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('moderation_reports').addColumn('report_no', 'integer').execute();
  await sql`
    update moderation_reports r set report_no = n.no
    from (select report_id, row_number() over (order by filed_at, report_id) as no from moderation_reports) n
    where r.report_id = n.report_id`.execute(db);
  await db.schema.createIndex('moderation_reports_no').on('moderation_reports').column('report_no').unique().execute();
  await db.schema.createIndex('moderation_reports_filed').on('moderation_reports').column('filed_at').execute();
  await db.schema
    .createIndex('moderation_reports_severity')
    .on('moderation_reports')
    .columns(['severity', 'filed_at'])
    .execute();
  await db.schema
    .createIndex('moderation_reports_reason')
    .on('moderation_reports')
    .columns(['reason', 'filed_at'])
    .execute();
  // A ban's evidence: the reports its case acted on.
  await db.schema.createIndex('moderation_reports_case').on('moderation_reports').column('case_id').execute();
  await db.schema
    .createIndex('moderation_bans_pending_appeal')
    .on('moderation_bans')
    .column('appealed_at')
    .where(sql.ref('appeal_status'), '=', 'pending')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('moderation_bans_pending_appeal').execute();
  await db.schema.dropIndex('moderation_reports_case').execute();
  await db.schema.dropIndex('moderation_reports_reason').execute();
  await db.schema.dropIndex('moderation_reports_severity').execute();
  await db.schema.dropIndex('moderation_reports_filed').execute();
  await db.schema.dropIndex('moderation_reports_no').execute();
  await db.schema.alterTable('moderation_reports').dropColumn('report_no').execute();
}
