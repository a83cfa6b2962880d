import type { OpsIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { ServiceInstanceEvent } from '../domain/service-instance.events.js';

/** What the ops context tells others: starts and stops, without pids or versions (those stay internal). */
export function opsIntegrationEvents(recorded: RecordedEvent): OpsIntegrationEvent[] {
  const event = recorded as unknown as ServiceInstanceEvent;
  const base = { id: recorded.id, context: 'ops', occurredAt: recorded.metadata.occurredAt };
  switch (event.type) {
    case 'ServiceStarted':
      return [{ ...base, type: 'ServiceStarted', data: { instance: event.data.instance, roles: event.data.roles } }];
    case 'ServiceStopped':
      return [{ ...base, type: 'ServiceStopped', data: { instance: event.data.instance, reason: event.data.reason } }];
    default:
      return [];
  }
}
