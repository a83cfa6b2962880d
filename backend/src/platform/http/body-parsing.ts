import {
  type CallHandler,
  type ExecutionContext,
  HttpException,
  Injectable,
  type NestInterceptor,
} from '@nestjs/common';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
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
export function deferredBodyParsers(
  imageRoutes: readonly RawImageRoute[] = [],
  /**
   * Whether the caller is signed in. A picture is megabytes: a guest's is never read (the route's guard answers 401),
   * so nobody can make the server hold bodies without a session.
   */
  signedIn: (req: Request) => Promise<boolean> = () => Promise.resolve(true),
): RequestHandler[] {
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
      if (image && req.is(image.route.types as string[])) {
        signedIn(req).then(
          (yes) => (yes ? parseWith(image.parse, image.route, req, res, next) : next()),
          (error: unknown) => next(error),
        );
        return;
      }
      parseWith(json, image?.route, req, res, next);
    },
  ];

  /** `image`: the picture route asked for, when the body is not of its types (then it must be JSON). */
  function parseWith(
    parse: RequestHandler,
    image: RawImageRoute | undefined,
    req: Request,
    res: Response,
    next: NextFunction,
  ) {
    parse(req, res, (error?: unknown) => {
      if (error) {
        const status = (error as { status?: number }).status ?? 400;
        (req as WithProblem)[BODY_PROBLEM] = {
          status,
          message: status === 413 ? 'body: too large' : 'body: not valid JSON',
        };
        (req as WithProblem).body = undefined;
      } else if (parse === json && nestedDeeperThan(req.body, MAX_JSON_DEPTH)) {
        (req as WithProblem)[BODY_PROBLEM] = {
          status: 400,
          message: `body: nested deeper than ${MAX_JSON_DEPTH} levels`,
        };
        (req as WithProblem).body = undefined;
      } else if (parse === json && hasBody(req) && !req.is('application/json')) {
        (req as WithProblem)[BODY_PROBLEM] = {
          status: 415,
          message: image
            ? `body: must be a picture (${image.types.join(', ')})`
            : 'body: must be JSON (application/json)',
        };
      }
      next();
    });
  }
}

/**
 * No body of the API nests more than a few levels; a much deeper one (a few kilobytes of `[[[[...`) overflowed the
 * stack of the recursive validators behind the parser, which answered 500.
 */
const MAX_JSON_DEPTH = 32;

/** Walked without recursion: the check must not overflow the stack it protects. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length) {
    const { value: next, depth } = pending.pop()!;
    if (typeof next !== 'object' || next === null) continue;
    if (depth >= limit) return true;
    for (const child of Object.values(next)) pending.push({ value: child, depth: depth + 1 });
  }
  return false;
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
