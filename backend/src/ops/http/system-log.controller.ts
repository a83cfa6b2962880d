import { Controller, Get, Header, Query, UseGuards } from '@nestjs/common';
import { LOG_LEVEL_FILTERS, type LogLevelFilter, type LogPageAnswer } from '@serendip/proto';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { AdminGuard } from '../../identity/public/index.js';
import { SYSTEM_LOG_MAX_PAGES, SystemLog } from '../queries/system-log/system-log.js';

export class SystemLogQuery {
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `page must be a whole number from 1 to ${SYSTEM_LOG_MAX_PAGES}` })
  @Min(1, { message: `page must be a whole number from 1 to ${SYSTEM_LOG_MAX_PAGES}` })
  @Max(SYSTEM_LOG_MAX_PAGES, { message: `page must be a whole number from 1 to ${SYSTEM_LOG_MAX_PAGES}` })
  page?: number;

  @IsOptional()
  @IsIn(LOG_LEVEL_FILTERS, { message: `level must be one of ${LOG_LEVEL_FILTERS.join(', ')}` })
  level?: LogLevelFilter;
}

/** The admin System Log's lines (spec 2, 7 GET /dash/logs). Admins only (AdminGuard, before the query is read). */
@Controller('dash/logs')
@UseGuards(AdminGuard)
export class SystemLogController {
  constructor(private readonly log: SystemLog) {}

  @Get()
  @Header('Cache-Control', 'no-store')
  page(@Query() query: SystemLogQuery): Promise<LogPageAnswer> {
    return this.log.page(query.page ?? 1, query.level);
  }
}
