import { describe, expect, it } from 'vitest';
import {
  DeciderSpecification,
  type EvolveTable,
  expectFoldChangesOnly,
} from '../../platform/cqrs/decider-specification.js';
import { serviceInstance, type ServiceInstanceCommand, type ServiceInstanceState } from './service-instance.decider.js';
import type { ServiceInstanceEvent, ServiceStarted, ServiceStopped } from './service-instance.events.js';

const spec = DeciderSpecification.for(serviceInstance);
const given = (events: ServiceInstanceEvent[]) =>
  spec.given(events, { now: new Date('2026-11-22T12:00:00Z'), actor: 'system' });

const start: ServiceInstanceCommand = {
  type: 'StartService',
  instance: 'i1',
  pid: 42,
  node: 'v20.20.2',
  roles: ['api'],
};
const started: ServiceStarted = {
  type: 'ServiceStarted',
  data: { instance: 'i1', pid: 42, node: 'v20.20.2', roles: ['api'] },
};
const stopped: ServiceStopped = { type: 'ServiceStopped', data: { instance: 'i1', reason: 'SIGTERM' } };

describe('service instance', () => {
  it('records a start', () => {
    given([]).when(start).then([started]);
  });

  it('refuses a second start of the same instance', () => {
    given([started]).when(start).thenThrows('instance-already-started');
  });

  it('records a stop with its reason, once', () => {
    given([started]).when({ type: 'StopService', instance: 'i1', reason: 'SIGTERM' }).then([stopped]);
    given([started, stopped]).when({ type: 'StopService', instance: 'i1', reason: 'SIGTERM' }).thenNothingHappened();
  });

  it('refuses to stop what never started', () => {
    const refusal = given([])
      .when({ type: 'StopService', instance: 'i1', reason: 'x' })
      .thenThrows('instance-not-started');
    expect(refusal.message).toMatch(/never started/);
  });
});

/** The state is only a status: a running instance is the one both events can meet. */
const runningState: ServiceInstanceState = { status: 'running' };

const evolveTable: EvolveTable<ServiceInstanceState, ServiceInstanceEvent> = {
  ServiceStarted: { on: serviceInstance.initialState, event: started, changes: { status: 'running' } },
  ServiceStopped: { event: stopped, changes: { status: 'stopped' } },
};

describe('service instance evolve', () => {
  it.each(Object.entries(evolveTable))(
    '%s, folded alone onto a representative state, changes only its own fields',
    (_type, { on, event, changes }) => expectFoldChangesOnly(serviceInstance, on ?? runningState, event, changes),
  );
});
