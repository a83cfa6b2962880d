import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { reportFiledDataSchema } from '@serendip/proto';
import { DomainError } from '../../platform/cqrs/decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { SeparatePair } from '../commands/separate-pair/separate-pair.command.js';

/**
 * The two of a reported call are never paired again (proto ReportFiled): every filed report separates its pair. A
 * durable subscription shared by all nodes: each report is handled once, also one filed while every node was down.
 * A report that does not fit its call separates nobody and is dropped; anything else (the store down) is retried.
 */
@Injectable()
export class SeparateReportedPairs implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(SeparateReportedPairs.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly commands: CommandBus,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'moderation',
        type: 'ReportFiled',
        schema: reportFiledDataSchema,
        durable: 'matching-separate-reported-pairs',
      },
      this.logger,
      async (report) => {
        try {
          await this.commands.execute(new SeparatePair(report));
        } catch (error) {
          if (!(error instanceof DomainError)) throw error;
          this.logger.warn(`report ${report.reportId} separates nobody: ${error.message}`);
        }
      },
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }
}
