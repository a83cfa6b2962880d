import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HourlyRun } from '../../../platform/shared/hourly-run.js';
import { PurgeOldLogLines } from './purge-old-log-lines.command.js';

/** Runs PurgeOldLogLines a minute after start and every hour, on every node (harmless: a delete by date). */
@Injectable()
export class LogRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(LogRetention.name);
  private readonly hourly = new HourlyRun(
    async () => {
      const deleted: number = await this.commands.execute(new PurgeOldLogLines(new Date()));
      if (deleted > 0) this.logger.log(`${deleted} log lines past retention deleted`);
    },
    this.logger,
    'old log lines not deleted',
  );

  constructor(private readonly commands: CommandBus) {}

  onApplicationBootstrap(): void {
    this.hourly.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.hourly.stop();
  }
}
