import {
  type CallHandler,
  type ExecutionContext,
  HttpException,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import express, { type Request, type RequestHandler } from 'express';
import type { Observable } from 'rxjs';

const BODY_PROBLEM = Symbol('BODY_PROBLEM');
type WithProblem = { [BODY_PROBLEM]?: { status: number; message: string }; body?: unknown };

const ERRORS: Record<number, string> = { 413: 'Payload Too Large', 415: 'Unsupported Media Type' };

/** A route that takes a picture's raw bytes as its body (its Content-Type one of `types`), instead of JSON. */
export interface RawImageRoute {
  path: string;
  types: readonly string[];
  maxBytes: number;
}

/**
 * JSON bodies, parsed as Nest's default would, and raw picture bytes on the routes that take them (`imageRoutes`),
 * except that a body that cannot be parsed is not answered here: the request goes on without a body, and
 * BodyProblemInterceptor answers it once the route's guards have run (DESIGN.md "Conventions": who is calling is
 * checked before anything is read from the body). A body of any other type (an HTML form, which another site can
 * post across sites) is refused the same way, with 415.
 */
export function deferredBodyParsers(imageRoutes: readonly RawImageRoute[] = []): RequestHandler[] {
  const json = express.json();
  const images = new Map(
    imageRoutes.map((route) => [
      route.path,
      { route, parse: express.raw({ type: [...route.types], limit: route.maxBytes }) },
    ]),
  );
  return [
    (req, res, next) => {
      const image = req.method === 'POST' ? images.get(req.path) : undefined;
      const parse = image && req.is(image.route.types as string[]) ? image.parse : json;
      parse(req, res, (error?: unknown) => {
        if (error) {
          const status = (error as { status?: number }).status ?? 400;
          (req as WithProblem)[BODY_PROBLEM] = {
            status,
            message: status === 413 ? 'body: too large' : 'body: not valid JSON',
          };
          (req as WithProblem).body = undefined;
        } else if (parse === json && hasBody(req) && !req.is('application/json')) {
          (req as WithProblem)[BODY_PROBLEM] = {
            status: 415,
            message: image
              ? `body: must be a picture (${image.route.types.join(', ')})`
              : 'body: must be JSON (application/json)',
          };
        }
        next();
      });
    },
  ];
}

function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** Answers a body the parsers could not read: 400 (or 413, 415) with the field-style message, after the guards. */
@Injectable()
export class BodyProblemInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const problem =
      context.getType() === 'http' ? context.switchToHttp().getRequest<WithProblem>()[BODY_PROBLEM] : undefined;
    if (problem) {
      throw new HttpException(
        { statusCode: problem.status, message: [problem.message], error: ERRORS[problem.status] ?? 'Bad Request' },
        problem.status,
      );
    }
    return next.handle();
  }
}
