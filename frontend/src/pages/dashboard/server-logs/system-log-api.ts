import { API_PREFIX, DASH_LOGS_PATH, type LogEntry, type LogLevelFilter } from '@serendip/proto';
import { type HttpClient, httpClient } from '../../../shared/http/http-client';

/** The server answered, and said it could not (spec 8: 'Failed to fetch logs.' when success is false). */
export class LogsNotFetched extends Error {
  override readonly name = 'LogsNotFetched';
}

export interface LogPage {
  logs: LogEntry[];
  totalPages: number;
}

export interface SystemLogApi {
  /** spec 7 GET /dash/logs?page={n}; rejects with LogsNotFetched on `success: false`, anything else on a failed call. */
  page(page: number, level: LogLevelFilter | null): Promise<LogPage>;
}

const PATH = DASH_LOGS_PATH.slice(`/${API_PREFIX}`.length);
const LEVELS = new Set(['info', 'warn', 'error', 'fatal']);

export function createSystemLogApi(http: HttpClient): SystemLogApi {
  return {
    async page(page, level) {
      const query = new URLSearchParams({ page: String(page) });
      if (level) query.set('level', level);
      const answer = await http.get<unknown>(`${PATH}?${query}`);
      if (!isRecord(answer)) throw new TypeError('GET /dash/logs: not an object');
      if (answer.success === false) throw new LogsNotFetched();
      if (answer.success !== true || !Array.isArray(answer.logs) || typeof answer.totalPages !== 'number') {
        throw new TypeError('GET /dash/logs: not a log page');
      }
      return { logs: answer.logs.filter(isLogEntry), totalPages: answer.totalPages };
    },
  };
}

export const systemLogApi = createSystemLogApi(httpClient);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isLogEntry(value: unknown): value is LogEntry {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.timestamp === 'string' &&
    typeof value.level === 'string' &&
    LEVELS.has(value.level) &&
    typeof value.message === 'string'
  );
}
