import { randomUUID } from 'node:crypto';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { CommandMetadata } from '../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../platform/event-core/event-core.js';
import { RecordServiceStart } from './commands/record-service-start/record-service-start.command.js';
import { RecordServiceStop } from './commands/record-service-stop/record-service-stop.command.js';

const ROLES = ['api', 'realtime', 'matchmaker', 'projector'];

/** Records this process's start and orderly stop as ops events; a start with no stop reads as a crash. */
@Injectable()
export class ServiceLifecycle implements BeforeApplicationShutdown {
  readonly instance = randomUUID();
  private readonly logger = new Logger(ServiceLifecycle.name);
  private stopReason = 'shutdown';
  private started = false;

  constructor(
    private readonly commands: CommandBus,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  /** main says why it is stopping (a signal, a crash) before closing the app. */
  stoppingBecause(reason: string): void {
    this.stopReason = reason;
  }

  /** Called once the app listens (not from a Nest hook: CQRS handlers are registered in one, in no set order). */
  async recordStart(): Promise<void> {
    await this.commands.execute(new RecordServiceStart(this.instance, ROLES, this.metadata()));
    this.started = true;
  }

  async beforeApplicationShutdown() {
    if (!this.started) return;
    try {
      const { position } = await this.commands.execute(
        new RecordServiceStop(this.instance, this.stopReason, this.metadata()),
      );
      // Let the System Log show the stop before the projections stop with us.
      if (position) await this.core.projections.caughtUpTo(position, 3000);
    } catch (error) {
      this.logger.warn(`could not record the stop: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private metadata(): CommandMetadata {
    return { commandId: randomUUID(), correlationId: this.instance, actor: 'system', now: new Date() };
  }
}
