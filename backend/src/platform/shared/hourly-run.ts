import type { Logger } from '@nestjs/common';

const FIRST_RUN_MS = 60_000;
const EVERY_MS = 60 * 60_000;

/**
 * Housekeeping (retention purges): `work` runs a minute after start, then an hour after each run ends, on every node
 * (each purge is safe to run at once on several). A failure is logged and the next hour tries again; `stop` waits for
 * a run in progress, so shutdown never cuts one in half.
 */
export class HourlyRun {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(
    private readonly work: () => Promise<unknown>,
    private readonly logger: Pick<Logger, 'error'>,
    /** What failed, for the log line: 'old log lines not deleted'. */
    private readonly failure: string,
  ) {}

  start(): void {
    this.schedule(FIRST_RUN_MS);
  }

  async stop(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.timer = setTimeout(() => this.run(), delayMs);
    this.timer.unref();
  }

  private run(): void {
    this.running = this.work()
      .catch((error: unknown) => this.logger.error(`${this.failure}: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.timer) this.schedule(EVERY_MS);
      });
  }
}
