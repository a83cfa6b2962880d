import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { HourlyRun } from '../../../platform/shared/hourly-run.js';
import { PurgeExpiredEvidence } from './purge-expired-evidence.command.js';

/**
 * Runs PurgeExpiredEvidence a minute after start and every hour. Every node runs it: the purge is safe to run at
 * once on several nodes, and a node whose DATA_DIR holds snapshots must be one of them.
 */
@Injectable()
export class EvidenceRetention implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(EvidenceRetention.name);
  private readonly hourly = new HourlyRun(
    () => this.commands.execute(new PurgeExpiredEvidence(new Date())),
    this.logger,
    'expired evidence not purged',
  );

  constructor(private readonly commands: CommandBus) {}

  onApplicationBootstrap(): void {
    this.hourly.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.hourly.stop();
  }
}
