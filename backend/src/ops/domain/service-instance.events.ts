import type { EventSchema } from '../../platform/personal-data/event-schemas.js';
import type { DomainEvent } from '../../platform/cqrs/decider.js';

/** A backend process (one "instance") came up, with the roles it runs. */
export type ServiceStarted = DomainEvent<
  'ServiceStarted',
  { instance: string; pid: number; node: string; roles: string[] }
>;
/** It is going away in order; a start with no stop after it means it crashed. */
export type ServiceStopped = DomainEvent<'ServiceStopped', { instance: string; reason: string }>;
export type ServiceInstanceEvent = ServiceStarted | ServiceStopped;

export const serviceInstanceStream = (instance: string) => `ops-instance-${instance}`;

export const opsEventSchemas: EventSchema[] = [
  { type: 'ServiceStarted', schemaVersion: 1 },
  { type: 'ServiceStopped', schemaVersion: 1 },
];
