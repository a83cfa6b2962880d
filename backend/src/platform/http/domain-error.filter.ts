import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { ConcurrencyConflict, DomainError } from '../cqrs/decider.js';

/** A domain rule said no: 400 with its message (and code); a stream that kept changing: 409, try again. */
@Catch(DomainError, ConcurrencyConflict)
export class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError | ConcurrencyConflict, host: ArgumentsHost) {
    const res = host.switchToHttp().getResponse<Response>();
    if (error instanceof ConcurrencyConflict) {
      res.status(HttpStatus.CONFLICT).json({ statusCode: 409, message: 'Please try again', error: 'Conflict' });
      return;
    }
    res
      .status(HttpStatus.BAD_REQUEST)
      .json({ statusCode: 400, message: [error.message], error: 'Bad Request', code: error.code });
  }
}
