import pg from 'pg';
import type { LoggerService } from '@nestjs/common';

const RETRY_MS = 2_000;

/**
 * One holder per database at a time (DESIGN.md: the matchmaker is a single writer, leader via a lock): a Postgres
 * session-level advisory lock on a connection of its own. Held while that connection lives; a node that dies lets
 * the next one in within RETRY_MS. `onLost` is called if the connection drops while held.
 */
export class LeaderLock {
  private client: pg.Client | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  private held = false;

  constructor(
    private readonly options: {
      databaseUrl: string;
      name: string;
      logger: Pick<LoggerService, 'log' | 'warn' | 'error'>;
      onAcquired: () => Promise<void>;
      onLost: () => Promise<void>;
    },
  ) {}

  get isHeld(): boolean {
    return this.held;
  }

  /** Resolves after the first attempt (held or not); later attempts run in the background. */
  async start(): Promise<void> {
    await this.attempt();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    const client = this.client;
    this.client = undefined;
    this.held = false;
    await client?.end().catch(() => undefined);
  }

  private async attempt(): Promise<void> {
    if (this.stopped) return;
    try {
      this.client ??= await this.connect();
      const { rows } = await this.client.query<{ locked: boolean }>(
        'select pg_try_advisory_lock(hashtext($1)) as locked',
        [this.options.name],
      );
      if (rows[0]?.locked) {
        this.held = true;
        this.options.logger.log(`this node holds ${this.options.name}`);
        await this.options.onAcquired();
        return;
      }
    } catch (error) {
      this.options.logger.warn(`${this.options.name}: lock attempt failed: ${(error as Error).message}`);
      await this.drop();
    }
    if (!this.stopped) this.timer = setTimeout(() => void this.attempt(), RETRY_MS);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.options.databaseUrl, application_name: this.options.name });
    client.on('error', (error) => {
      this.options.logger.error(`${this.options.name}: lock connection lost: ${error.message}`);
      void this.lost();
    });
    await client.connect();
    return client;
  }

  private async lost(): Promise<void> {
    const wasHeld = this.held;
    await this.drop();
    if (wasHeld) await this.options.onLost().catch(() => undefined);
    if (!this.stopped) this.timer = setTimeout(() => void this.attempt(), RETRY_MS);
  }

  private async drop(): Promise<void> {
    this.held = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }
}
