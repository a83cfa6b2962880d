import { type Kysely, sql } from 'kysely';

/**
 * notifications' read models (spec 3 Notification, 4 Notifications): one row per notification (recipient null: to
 * everyone), a row per notification a user has read (written when they read it, never when it is sent, so an
 * announcement to a million users writes one row), and each user's "mark all read" moment.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('notifications')
    .addColumn('notification_id', 'text', (c) => c.primaryKey())
    .addColumn('recipient_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('admin_announcement', 'text')
    .addColumn('force_open', 'boolean', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('details', 'jsonb')
    .addColumn('sent_by', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // A user's list: their own, newest first; and everyone's since they joined.
  await db.schema
    .createIndex('notifications_recipient')
    .on('notifications')
    .columns(['recipient_id', 'sent_at'])
    .where(sql.ref('recipient_id'), 'is not', null)
    .execute();
  await db.schema
    .createIndex('notifications_everyone')
    .on('notifications')
    .column('sent_at')
    .where(sql.ref('recipient_id'), 'is', null)
    .execute();

  await db.schema
    .createTable('notification_reads')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('notification_id', 'text', (c) => c.notNull())
    .addColumn('read_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('notification_reads_pk', ['user_id', 'notification_id'])
    .execute();

  await db.schema
    .createTable('notification_read_marks')
    .addColumn('user_id', 'text', (c) => c.primaryKey())
    .addColumn('all_read_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notification_read_marks').execute();
  await db.schema.dropTable('notification_reads').execute();
  await db.schema.dropTable('notifications').execute();
}
