import { type Kysely, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../../database/schema.js';
import type { Logger } from 'pino';

/** Appends in this window share one NOTIFY: Postgres serializes the commits of transactions that notify. */
const NOTIFY_COALESCE_MS = 2;

export type Wake = 'notified' | 'timeout' | 'stopped';

/**
 * Wakes readers of the log when an append commits (LISTEN/NOTIFY on one connection shared by every
 * subscription). Losing the connection only slows readers down to the poll interval until it is back.
 */
export class CommitNotifier {
  /** Counts notifications: a reader remembers it before reading, so one that arrives meanwhile is not lost. */
  generation = 0;
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private waiters = new Set<() => void>();
  private closed = false;
  private retryAt = 0;
  private notifyTimer: NodeJS.Timeout | undefined;
  private notifying: Promise<void> | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly logger: Logger,
  ) {}

  /**
   * An append committed: wake this process's readers now, and other processes' with one NOTIFY shortly
   * (sent outside the appends' own transactions, so appends never queue behind each other on it).
   */
  announce(): void {
    this.wakeAll();
    if (this.notifyTimer || this.closed) return;
    this.notifyTimer = setTimeout(() => this.sendNotify(), NOTIFY_COALESCE_MS);
  }

  private sendNotify(): void {
    this.notifyTimer = undefined;
    this.notifying = sql`select pg_notify(${this.channel}, '')`.execute(this.db).then(
      () => undefined,
      (error: unknown) => this.logger.warn({ err: String(error) }, 'could not announce appended events'),
    );
  }

  private wakeAll(): void {
    this.generation++;
    for (const wake of [...this.waiters]) wake();
  }

  /** Resolves on the first notification after `seen`, after `timeoutMs`, or when `signal` aborts. */
  async next(seen: number, timeoutMs: number, signal: AbortSignal): Promise<Wake> {
    this.ensureListening();
    if (this.generation > seen) return 'notified';
    if (signal.aborted) return 'stopped';
    return new Promise<Wake>((resolve) => {
      const done = (wake: Wake) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(onNotify);
        resolve(wake);
      };
      const onNotify = () => done('notified');
      const onAbort = () => done('stopped');
      const timer = setTimeout(() => done('timeout'), timeoutMs);
      signal.addEventListener('abort', onAbort);
      this.waiters.add(onNotify);
    });
  }

  private ensureListening(): void {
    if (this.client || this.connecting || this.closed || Date.now() < this.retryAt) return;
    const client = new pg.Client({ connectionString: this.connectionString });
    this.connecting = (async () => {
      try {
        client.on('notification', () => this.wakeAll());
        client.on('error', (error) => this.drop(client, error));
        client.on('end', () => this.drop(client));
        await client.connect();
        await client.query(`LISTEN ${this.channel}`);
        if (this.closed) await client.end();
        else this.client = client;
      } catch (error) {
        this.drop(client, error);
      } finally {
        this.connecting = undefined;
      }
    })();
  }

  private drop(client: pg.Client, error?: unknown): void {
    if (this.client === client) this.client = undefined;
    if (this.closed) return;
    this.retryAt = Date.now() + 1000;
    if (error)
      this.logger.warn(
        { err: error instanceof Error ? error.message : String(error) },
        'event notifications lost; polling until back',
      );
    client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    // An append's NOTIFY still waiting goes out now, before the caller closes the pool (a CLI exits right after).
    if (this.notifyTimer) {
      clearTimeout(this.notifyTimer);
      this.sendNotify();
    }
    await this.notifying;
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
    for (const wake of [...this.waiters]) wake();
  }
}
