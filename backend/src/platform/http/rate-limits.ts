import { createHash } from 'node:crypto';
import pg from 'pg';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import { DomainError } from '../cqrs/decider.js';

/** 429 with Retry-After (seconds), so clients and people know when to try again. */
export class TooManyRequests extends DomainError {
  override name = 'TooManyRequests';
  constructor(retryAfterSeconds: number) {
    super('too-many', 'Too many attempts; try again later', { kind: 'too-many', retryAfterSeconds });
  }
}

export interface Limit {
  /** Names the counter family, e.g. `login-fail-account`. */
  name: string;
  points: number;
  durationSeconds: number;
}

/**
 * Rate limits kept in Postgres (rate-limiter-flexible), so every node counts together. `check` refuses once a
 * key is used up; `consume` counts one (e.g. a failed login), `take` does both.
 */
export class RateLimits {
  private readonly limiters = new Map<string, RateLimiterPostgres>();
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new pg.Pool({ connectionString, max: 4 });
    this.pool.on('error', () => undefined);
  }

  private limiter(limit: Limit): RateLimiterPostgres {
    let limiter = this.limiters.get(limit.name);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.pool,
        storeType: 'pool',
        tableName: 'rate_limits',
        tableCreated: true,
        keyPrefix: limit.name,
        points: limit.points,
        duration: limit.durationSeconds,
      });
      this.limiters.set(limit.name, limiter);
    }
    return limiter;
  }

  /** Throws TooManyRequests if the key has no points left. */
  async check(limit: Limit, key: string): Promise<void> {
    const state = await this.limiter(limit).get(counterKey(key));
    if (state && state.consumedPoints >= limit.points)
      throw new TooManyRequests(Math.max(1, Math.ceil(state.msBeforeNext / 1000)));
  }

  async consume(limit: Limit, key: string): Promise<void> {
    await this.limiter(limit)
      .consume(counterKey(key))
      .catch((res: unknown) => {
        if (!(res instanceof RateLimiterRes)) throw res;
      });
  }

  /** Counts one and throws TooManyRequests when that was one too many. */
  async take(limit: Limit, key: string): Promise<void> {
    try {
      await this.limiter(limit).consume(counterKey(key));
    } catch (res) {
      if (res instanceof RateLimiterRes) throw new TooManyRequests(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
      throw res;
    }
  }

  /** True if one more is allowed (and counts it); for limits that must not show (e-mails to an address). */
  async allow(limit: Limit, key: string): Promise<boolean> {
    try {
      await this.limiter(limit).consume(counterKey(key));
      return true;
    } catch (res) {
      if (res instanceof RateLimiterRes) return false;
      throw res;
    }
  }

  /** Gives back one point taken for an attempt that turned out fine. */
  async refund(limit: Limit, key: string): Promise<void> {
    await this.limiter(limit).reward(counterKey(key), 1);
  }

  async reset(limit: Limit, key: string): Promise<void> {
    await this.limiter(limit).delete(counterKey(key));
  }

  close(): Promise<void> {
    return this.pool.end();
  }

  /** Nest calls this when the app closes. */
  onApplicationShutdown(): Promise<void> {
    return this.close();
  }
}

/** The process's one RateLimits (Postgres-backed counters shared by every node). */
export const RATE_LIMITS = Symbol('RATE_LIMITS');

/** How many failed logins, mails and sign-ups are allowed, and over how long. */
export const LIMITS = {
  loginFailuresPerAccount: { name: 'login-fail-account', points: 10, durationSeconds: 15 * 60 },
  loginFailuresPerIp: { name: 'login-fail-ip', points: 10, durationSeconds: 15 * 60 },
  mailsPerAddress: { name: 'mail-address', points: 3, durationSeconds: 60 * 60 },
  signupsPerIp: { name: 'signup-ip', points: 5, durationSeconds: 60 * 60 },
  // With the sign-up's own mail, no more than mailsPerAddress lets through: every link promised is sent.
  verificationLinksPerAccount: { name: 'verify-link-account', points: 2, durationSeconds: 60 * 60 },
  // Two-factor: a right password must not buy endless codes, nor endless tries at them.
  signInCodesPerAccount: { name: 'signin-code-account', points: 5, durationSeconds: 15 * 60 },
  wrongCodesPerAccount: { name: 'wrong-code-account', points: 10, durationSeconds: 15 * 60 },
} satisfies Record<string, Limit>;

/**
 * Keys are e-mail addresses, IPs and user ids: personal data that must not sit in a table in clear (nor outlive a
 * deleted account). Counting only needs equality, so the table holds a digest.
 */
function counterKey(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}
