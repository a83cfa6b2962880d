import { type ArgumentsHost, Catch, type ExceptionFilter, HttpStatus } from '@nestjs/common';
import type { Response } from 'express';
import { DomainError, type DomainErrorKind } from '../cqrs/decider.js';

const STATUS: Record<DomainErrorKind, [number, string]> = {
  invalid: [HttpStatus.BAD_REQUEST, 'Bad Request'],
  unauthenticated: [HttpStatus.UNAUTHORIZED, 'Unauthorized'],
  forbidden: [HttpStatus.FORBIDDEN, 'Forbidden'],
  'not-found': [HttpStatus.NOT_FOUND, 'Not Found'],
  conflict: [HttpStatus.CONFLICT, 'Conflict'],
  'too-many': [HttpStatus.TOO_MANY_REQUESTS, 'Too Many Requests'],
  unavailable: [HttpStatus.SERVICE_UNAVAILABLE, 'Service Unavailable'],
};

/**
 * The one mapping from a refusal to an HTTP answer, in the shapes Nest answers itself: a 400 lists "field: problem"
 * lines (as the validation pipe does) with the stable `code`; the others carry one message. A 429 says when to come
 * back (Retry-After).
 */
@Catch(DomainError)
export class DomainErrorFilter implements ExceptionFilter {
  catch(error: DomainError, host: ArgumentsHost) {
    answerDomainError(host.switchToHttp().getResponse<Response>(), error);
  }
}

/** Also for the few routes outside Nest (the tus uploads). */
export function answerDomainError(res: Response, error: DomainError): void {
  const [statusCode, name] = STATUS[error.kind];
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  const line = error.field ? `${error.field}: ${error.message}` : error.message;
  // A 400 lists its problems, as the validation pipe does; the other kinds carry one message.
  const message = error.kind === 'invalid' ? [line] : error.message;
  res.status(statusCode).json({ statusCode, message, error: name, code: error.code });
}
