import { Inject, Injectable } from '@nestjs/common';
import { LOG_PAGE_SIZE, type LogEntry, type LogLevel, type LogLevelFilter, type LogPageAnswer } from '@serendip/proto';
import { DATABASE, type Db } from '../../../platform/database/database.js';

/**
 * The deepest page reachable. Counting a busy log's every line would be slow, and nobody clicks Load More 200 times;
 * the newest 10,000 lines (per filter) are what the page can reach.
 */
export const SYSTEM_LOG_MAX_PAGES = 200;

/** The System Log (spec 2, 7 GET /dash/logs): the app's own lines, newest first, paged in SQL (index app_log_newest). */
@Injectable()
export class SystemLog {
  constructor(@Inject(DATABASE) private readonly db: Db) {}

  async page(page: number, level?: LogLevelFilter): Promise<LogPageAnswer> {
    const levels: LogLevel[] | undefined = level === 'error' ? ['error', 'fatal'] : level ? [level] : undefined;
    const base = () => {
      const query = this.db.selectFrom('app_log');
      return levels ? query.where('level', 'in', levels) : query;
    };
    const [rows, counted] = await Promise.all([
      base()
        .select(['id', 'logged_at', 'level', 'message'])
        .orderBy('logged_at', 'desc')
        .orderBy('id', 'desc')
        .limit(LOG_PAGE_SIZE)
        .offset((page - 1) * LOG_PAGE_SIZE)
        .execute(),
      this.db
        .selectFrom(
          base()
            .select('id')
            .limit(SYSTEM_LOG_MAX_PAGES * LOG_PAGE_SIZE)
            .as('reachable'),
        )
        .select((eb) => eb.fn.countAll<string>().as('lines'))
        .executeTakeFirstOrThrow(),
    ]);
    return {
      success: true,
      logs: rows.map((r): LogEntry => ({
        id: String(r.id),
        timestamp: new Date(r.logged_at).toISOString(),
        level: r.level as LogLevel,
        message: r.message,
      })),
      page,
      totalPages: Math.ceil(Number(counted.lines) / LOG_PAGE_SIZE),
    };
  }
}
