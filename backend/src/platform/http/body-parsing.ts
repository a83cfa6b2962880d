import {
  type CallHandler,
  type ExecutionContext,
  HttpException,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import express, { type RequestHandler } from 'express';
import type { Observable } from 'rxjs';

const BODY_PROBLEM = Symbol('BODY_PROBLEM');
type WithProblem = { [BODY_PROBLEM]?: { status: number; message: string }; body?: unknown };

/**
 * JSON and form bodies, parsed as Nest's defaults would, except that a body that cannot be parsed is not answered
 * here: the request goes on without a body, and BodyProblemInterceptor answers it once the route's guards have run
 * (DESIGN.md "Conventions": who is calling is checked before anything is read from the body).
 */
export function deferredBodyParsers(): RequestHandler[] {
  return [express.json(), express.urlencoded({ extended: true })].map(
    (parse): RequestHandler =>
      (req, res, next) =>
        parse(req, res, (error?: unknown) => {
          if (error) {
            const status = (error as { status?: number }).status ?? 400;
            (req as WithProblem)[BODY_PROBLEM] = {
              status,
              message: status === 413 ? 'body: too large' : 'body: not valid JSON',
            };
            (req as WithProblem).body = undefined;
          }
          next();
        }),
  );
}

/** Answers a body the parsers could not read: 400 (or 413, 415) with the field-style message, after the guards. */
@Injectable()
export class BodyProblemInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const problem =
      context.getType() === 'http' ? context.switchToHttp().getRequest<WithProblem>()[BODY_PROBLEM] : undefined;
    if (problem) {
      throw new HttpException(
        {
          statusCode: problem.status,
          message: [problem.message],
          error: problem.status === 413 ? 'Payload Too Large' : 'Bad Request',
        },
        problem.status,
      );
    }
    return next.handle();
  }
}
