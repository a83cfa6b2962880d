import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type DeciderResult, executeDecider, type CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { serviceInstance } from '../../domain/service-instance.decider.js';
import { type ServiceInstanceEvent, serviceInstanceStream } from '../../domain/service-instance.events.js';

export class RecordServiceStart extends Command<DeciderResult<ServiceInstanceEvent>> {
  constructor(
    readonly instance: string,
    readonly roles: string[],
    readonly metadata: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(RecordServiceStart)
export class RecordServiceStartHandler implements ICommandHandler<RecordServiceStart> {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  execute({ instance, roles, metadata }: RecordServiceStart) {
    return executeDecider(
      this.core,
      serviceInstanceStream(instance),
      serviceInstance,
      { type: 'StartService', instance, pid: process.pid, node: process.version, roles },
      metadata,
    );
  }
}
