import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PurgeOldLogLines } from './purge-old-log-lines.command.js';

const FIRST_RUN_MS = 60_000;
const EVERY_MS = 60 * 60_000;

/** Runs PurgeOldLogLines a minute after start and every hour, on every node (harmless: a delete by date). */
@Injectable()
export class LogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LogRetention.name);
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;

  constructor(private readonly commands: CommandBus) {}

  onApplicationBootstrap(): void {
    this.timer = setTimeout(() => this.run(), FIRST_RUN_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private run(): void {
    this.running = this.commands
      .execute(new PurgeOldLogLines(new Date()))
      .then((deleted) => {
        if (deleted > 0) this.logger.log(`${deleted} log lines past retention deleted`);
      })
      .catch((error: unknown) => this.logger.error(`old log lines not deleted: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.timer) {
          this.timer = setTimeout(() => this.run(), EVERY_MS);
          this.timer.unref();
        }
      });
  }
}
