import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { ConcurrencyConflict, DomainError } from '../cqrs/decider.js';
import { TooManyRequests } from './rate-limits.js';

/** A domain rule said no: 400 with its message (and code); a stream that kept changing: 409, try again. */
@Catch(DomainError, ConcurrencyConflict, TooManyRequests)
export class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError | ConcurrencyConflict | TooManyRequests, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    if (error instanceof TooManyRequests) {
      res.setHeader('Retry-After', String(error.retryAfterSeconds));
      res.status(429).json(error.getResponse());
      return;
    }
    if (error instanceof ConcurrencyConflict) {
      res.status(HttpStatus.CONFLICT).json({ statusCode: 409, message: 'Please try again', error: 'Conflict' });
      return;
    }
    res
      .status(HttpStatus.BAD_REQUEST)
      .json({ statusCode: 400, message: [error.message], error: 'Bad Request', code: error.code });
  }
}
