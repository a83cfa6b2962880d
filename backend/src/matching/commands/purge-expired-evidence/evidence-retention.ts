import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { PurgeExpiredEvidence } from './purge-expired-evidence.command.js';

const FIRST_RUN_MS = 60_000;
const EVERY_MS = 60 * 60_000;

/**
 * Runs PurgeExpiredEvidence a minute after start and every hour. Every node runs it: the purge is safe to run at
 * once on several nodes, and a node whose DATA_DIR holds snapshots must be one of them.
 */
@Injectable()
export class EvidenceRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EvidenceRetention.name);
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
      .execute(new PurgeExpiredEvidence(new Date()))
      .catch((error: unknown) => this.logger.error(`expired evidence not purged: ${(error as Error).message}`))
      .finally(() => {
        this.running = undefined;
        if (this.timer) {
          this.timer = setTimeout(() => this.run(), EVERY_MS);
          this.timer.unref();
        }
      });
  }
}
