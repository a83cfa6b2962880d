import { Controller, Get, HttpStatus, Inject, Logger, Res } from '@nestjs/common';
import { HEALTH_MESSAGES, type HealthAnswer } from '@serendip/proto';
import type { Response } from 'express';
import { sql } from 'kysely';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';
import { DATABASE, type Db, describeDbError } from '../../platform/database/database.js';

const PROBE_TIMEOUT_MS = 2000;

/** spec 7: GET /health answers a message; 200 means up, anything else down. */
@Controller('health')
export class HealthController {
  private readonly logger = new Logger(HealthController.name);

  constructor(@Inject(DATABASE) private readonly db: Db) {}

  @Get()
  @ApiAnswers({ 503: { description: 'Down: the database does not answer (within 2 s).', sameBodyAsSuccess: true } })
  async check(@Res({ passthrough: true }) res: Response): Promise<HealthAnswer> {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await withTimeout(sql`select 1`.execute(this.db), PROBE_TIMEOUT_MS);
      return { message: HEALTH_MESSAGES.up };
    } catch (error) {
      // The probe is public: the driver's words (hosts, database names) go to the log, not to the caller.
      this.logger.warn(`health probe failed: ${describeDbError(error)}`);
      res.status(HttpStatus.SERVICE_UNAVAILABLE);
      return { message: HEALTH_MESSAGES.down, reason: 'database unreachable' };
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
