import { type Kysely, sql } from 'kysely';

/**
 * matching's evidence read models: the snapshots still kept (for retention and account deletion) and who did what
 * with each (the admins' audit). Ids only: the stated reason stays sealed in the log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_snapshots')
    .addColumn('snapshot_id', 'text', (c) => c.primaryKey())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('report_id', 'text')
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('taken_at', 'timestamptz', (c) => c.notNull())
    .addColumn('holds', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('evidence_snapshots_user').on('evidence_snapshots').column('user_id').execute();
  await db.schema
    .createIndex('evidence_snapshots_unheld_by_age')
    .on('evidence_snapshots')
    .column('taken_at')
    .where(sql.ref('holds'), '=', 0)
    .execute();
  await db.schema
    .createTable('evidence_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('snapshot_id', 'text', (c) => c.notNull())
    .addColumn('match_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await db.schema.createIndex('evidence_audit_snapshot').on('evidence_audit').columns(['snapshot_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evidence_audit').execute();
  await db.schema.dropTable('evidence_snapshots').execute();
}
