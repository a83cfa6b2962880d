import type { ColumnType, Generated } from 'kysely';

/** Read models and plumbing tables, as kysely sees them. Each context adds its tables here. */
export interface Database {
  server_log: ServerLogTable;
}

/** Operational log shown to admins on the System Log page (spec 2, 7: GET /dash/logs). */
export interface ServerLogTable {
  id: Generated<string>;
  timestamp: ColumnType<Date, Date | string | undefined, never>;
  level: 'info' | 'warn' | 'error';
  message: string;
  /** The backend process that wrote it (a row per start lets operators see restarts). */
  instance: string;
}
