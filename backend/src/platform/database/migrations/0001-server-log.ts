import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('server_log')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('level', 'text', (c) => c.notNull().check(sql`level in ('info', 'warn', 'error')`))
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('instance', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('server_log_timestamp').on('server_log').column('timestamp desc').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_log').execute();
}
