import { type ArgumentsHost, Catch, HttpException, HttpStatus, Logger } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import type { Response } from 'express';
import { describeDbError } from '../database/database.js';

/** How soon to come back: a restarted Postgres takes seconds. */
const RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'Serendip is briefly unavailable; please try again in a few seconds';

/**
 * While the database is away (restarted, failed over, unreachable), a request is a 503 with Retry-After, not a 500:
 * nothing was done, and the same request will work once it is back (DESIGN.md "Faults"). The pool reconnects by
 * itself; nothing here needs a restart. Every other error goes on to Nest's own handling.
 */
@Catch()
export class DatabaseUnavailableFilter extends BaseExceptionFilter {
  private readonly logger = new Logger('Database');

  override catch(error: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http' || error instanceof HttpException || !isDatabaseUnavailable(error))
      return super.catch(error, host);
    this.logger.warn(`request refused, the database is unavailable: ${describeDbError(error)}`);
    const res = host.switchToHttp().getResponse<Response>();
    if (res.headersSent) return;
    res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    res.status(HttpStatus.SERVICE_UNAVAILABLE).json({
      statusCode: HttpStatus.SERVICE_UNAVAILABLE,
      message: DATABASE_UNAVAILABLE_MESSAGE,
      error: 'Service Unavailable',
      code: 'database-unavailable',
    });
  }
}

/** Node's socket errors, pg's own words for a lost connection, and Postgres's connection and shutdown codes. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  '57P01',
  '57P02',
  '57P03',
]);

export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || code.startsWith('08'))) return true;
  if (error instanceof AggregateError) return error.errors.some(isDatabaseUnavailable);
  return /^Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/.test(
    error.message,
  );
}
