import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DeciderResult, executeDecider, type CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { serviceInstance } from '../../domain/service-instance.decider.js';
import { type ServiceInstanceEvent, serviceInstanceStream } from '../../domain/service-instance.events.js';

export class RecordServiceStop extends Command<DeciderResult<ServiceInstanceEvent>> {
  constructor(
    readonly instance: string,
    readonly reason: string,
    readonly metadata: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(RecordServiceStop)
export class RecordServiceStopHandler implements ICommandHandler<RecordServiceStop> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  execute({ instance, reason, metadata }: RecordServiceStop) {
    return executeDecider(
      this.core,
      serviceInstanceStream(instance),
      serviceInstance,
      { type: 'StopService', instance, reason },
      metadata,
    );
  }
}
