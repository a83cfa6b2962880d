import { describe, expect, it } from 'vitest';
import { DomainError } from '../../platform/cqrs/decider.js';
import { serviceInstance, type ServiceInstanceCommand } from './service-instance.decider.js';
import type { ServiceInstanceEvent } from './service-instance.events.js';

const context = { now: new Date('2026-11-22T12:00:00Z'), actor: 'system' };
const given = (events: ServiceInstanceEvent[]) => ({
  when: (command: ServiceInstanceCommand) => () =>
    serviceInstance.decide(command, events.reduce(serviceInstance.evolve, serviceInstance.initialState), context),
});

const start: ServiceInstanceCommand = {
  type: 'StartService',
  instance: 'i1',
  pid: 42,
  node: 'v20.20.2',
  roles: ['api'],
};
const started: ServiceInstanceEvent = {
  type: 'ServiceStarted',
  data: { instance: 'i1', pid: 42, node: 'v20.20.2', roles: ['api'] },
};
const stopped: ServiceInstanceEvent = { type: 'ServiceStopped', data: { instance: 'i1', reason: 'SIGTERM' } };

describe('service instance', () => {
  it('records a start', () => {
    expect(given([]).when(start)()).toEqual([started]);
  });

  it('refuses a second start of the same instance', () => {
    expect(given([started]).when(start)).toThrow(DomainError);
  });

  it('records a stop with its reason, once', () => {
    expect(given([started]).when({ type: 'StopService', instance: 'i1', reason: 'SIGTERM' })()).toEqual([stopped]);
    expect(given([started, stopped]).when({ type: 'StopService', instance: 'i1', reason: 'SIGTERM' })()).toEqual([]);
  });

  it('refuses to stop what never started', () => {
    expect(given([]).when({ type: 'StopService', instance: 'i1', reason: 'x' })).toThrow(/never started/);
  });
});
