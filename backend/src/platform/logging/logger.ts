import type { LoggerService } from '@nestjs/common';
import { pino, type Logger, type LoggerOptions } from 'pino';

const SECRET_OR_PERSONAL_KEYS = [
  'password',
  'newPassword',
  'currentPassword',
  'emailAddress',
  'phoneNumber',
  'token',
  'refreshToken',
  'accessToken',
  'cookie',
  'authorization',
  'ip',
];

/** Keys pino blanks in every line, up to three levels deep: secrets and personal data stay out of logs. */
export const REDACTED_PATHS = SECRET_OR_PERSONAL_KEYS.flatMap((k) => [k, `*.${k}`, `*.*.${k}`]);

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'backend', pid: process.pid },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return destination ? pino(options, destination) : pino(options);
}

/**
 * stdout as before, every level the logger lets through; and a copy of info and above for the admin System Log
 * (spec 2), written to Postgres by the sink.
 */
export function stdoutAndDatabase(sink: pino.DestinationStream): pino.DestinationStream {
  return pino.multistream([
    { level: 'trace', stream: pino.destination(1) },
    { level: 'info', stream: sink },
  ]);
}

/** Lets Nest's own messages (module init, route map, errors) come out as the same JSON lines. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string) {
    this.logger.error({ context, trace }, message instanceof Error ? message.message : String(message));
  }
  warn(message: unknown, context?: string) {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string) {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string) {
    this.logger.trace({ context }, String(message));
  }
  fatal(message: unknown, context?: string) {
    this.logger.fatal({ context }, String(message));
  }
}

/** A URL fit for a log line: no user name or password. */
export function safeUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '[unparseable url]';
  }
}

/**
 * A request path fit for a log line: no query string (it may carry tokens) and long opaque segments (tokens,
 * e.g. a password-reset link) replaced by `:token`.
 */
export function loggablePath(url: string | undefined): string {
  // A guest picks the path's length: a log line keeps its first 512 characters.
  const whole = (url ?? '').split('?')[0]!;
  const path = whole.length > 512 ? `${whole.slice(0, 512)}…` : whole;
  return path
    .split('/')
    .map((segment) => (/^[A-Za-z0-9_-]{24,}$/.test(segment) && !/^[0-9a-f-]{36}$/.test(segment) ? ':token' : segment))
    .join('/');
}
