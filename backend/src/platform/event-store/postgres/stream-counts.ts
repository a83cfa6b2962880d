import { sql } from 'kysely';
import type { Db } from '../../database/database.js';

/**
 * Each stream whose name starts with `prefix`, with how many events it holds, counted by Postgres without reading a
 * single event (a walk through the log would fetch and open all of it: seconds per million events). Only what a read
 * of the log shows now: transactions older than every running one (the rule readAll reads by).
 */
export async function countStreams(db: Db, prefix: string): Promise<Map<string, number>> {
  const { rows } = await sql<{ stream_id: string; n: string }>`
    select stream_id, count(*) as n from events
    where starts_with(stream_id, ${prefix}) and transaction_id < pg_snapshot_xmin(pg_current_snapshot())
    group by stream_id`.execute(db);
  return new Map(rows.map((row) => [row.stream_id, Number(row.n)]));
}
