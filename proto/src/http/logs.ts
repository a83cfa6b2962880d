/** The admin System Log (spec 2 "System Log page", 3 "Log entry", 7 GET /dash/logs). */

export const DASH_LOGS_PATH = '/api/dash/logs';

/** Lines per page; the spec does not give one (spec 9), so the server fixes it. */
export const LOG_PAGE_SIZE = 50;

/** The filter's levels; `error` includes fatal lines. */
export const LOG_LEVEL_FILTERS = ['info', 'warn', 'error'] as const;
export type LogLevelFilter = (typeof LOG_LEVEL_FILTERS)[number];

export type LogLevel = 'info' | 'warn' | 'error' | 'fatal';

/** spec 3 "Log entry": timestamp, level, message; plus its id, so a page that overlaps the last is shown once. */
export interface LogEntry {
  id: string;
  /** ISO 8601. */
  timestamp: string;
  level: LogLevel;
  /** Personal data (e-mail, IP, phone) and tokens are scrubbed before a line is stored. */
  message: string;
}

/** `GET /api/dash/logs?page={n}&level={info|warn|error}`: newest first. */
export interface LogPageAnswer {
  success: true;
  logs: LogEntry[];
  page: number;
  totalPages: number;
}
