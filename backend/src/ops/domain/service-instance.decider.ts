import { type Decider, DomainError } from '../../platform/cqrs/decider.js';
import type { ServiceInstanceEvent } from './service-instance.events.js';

export type ServiceInstanceCommand =
  | { type: 'StartService'; instance: string; pid: number; node: string; roles: string[] }
  | { type: 'StopService'; instance: string; reason: string };

export type ServiceInstanceState = { status: 'unknown' } | { status: 'running' } | { status: 'stopped' };

export const serviceInstance: Decider<ServiceInstanceCommand, ServiceInstanceState, ServiceInstanceEvent> = {
  initialState: { status: 'unknown' },

  evolve(_state, event) {
    switch (event.type) {
      case 'ServiceStarted':
        return { status: 'running' };
      case 'ServiceStopped':
        return { status: 'stopped' };
      default: {
        const unknown: never = event;
        throw new Error(`unknown event ${(unknown as { type: string }).type}`);
      }
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'StartService': {
        if (state.status !== 'unknown')
          throw new DomainError('instance-already-started', `instance ${command.instance} already started`);
        const { instance, pid, node, roles } = command;
        return [{ type: 'ServiceStarted', data: { instance, pid, node, roles } }];
      }
      case 'StopService': {
        if (state.status === 'unknown')
          throw new DomainError('instance-not-started', `instance ${command.instance} never started`);
        if (state.status === 'stopped') return [];
        return [{ type: 'ServiceStopped', data: { instance: command.instance, reason: command.reason } }];
      }
      default: {
        const unknown: never = command;
        throw new Error(`unknown command ${(unknown as { type: string }).type}`);
      }
    }
  },
};
