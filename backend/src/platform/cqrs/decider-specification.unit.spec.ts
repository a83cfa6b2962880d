import { describe, expect, it } from 'vitest';
import { type Decider, type DomainEvent, DomainError } from './decider.js';
import { DeciderSpecification, expectFoldChangesOnly } from './decider-specification.js';

// A door that can be opened once it is unlocked: enough state for the folded given events to matter.
type DoorEvent = DomainEvent<'Unlocked', { by: string }> | DomainEvent<'Opened', { by: string; at: string }>;
type DoorCommand = { type: 'Unlock' } | { type: 'Open' } | { type: 'Kick' };
interface DoorState {
  locked: boolean;
  open: boolean;
}

const door: Decider<DoorCommand, DoorState, DoorEvent> = {
  initialState: { locked: true, open: false },
  evolve(state, event) {
    switch (event.type) {
      case 'Unlocked':
        return { ...state, locked: false };
      case 'Opened':
        return { ...state, open: true };
    }
  },
  decide(command, state, { now, actor }) {
    switch (command.type) {
      case 'Unlock':
        return state.locked ? [{ type: 'Unlocked', data: { by: actor } }] : [];
      case 'Open':
        if (state.locked) throw new DomainError('door-locked', 'the door is locked');
        return [{ type: 'Opened', data: { by: actor, at: now.toISOString() } }];
      case 'Kick':
        throw new Error('not a rule of the domain: a bug');
    }
  },
};

const spec = DeciderSpecification.for(door);
const unlocked: DoorEvent = { type: 'Unlocked', data: { by: 'test' } };
const context = { now: new Date('2026-11-22T12:00:00Z'), actor: 'ada' };

describe('DeciderSpecification', () => {
  it('folds the given events and decides with the given context', () => {
    spec
      .given([unlocked], context)
      .when({ type: 'Open' })
      .then([{ type: 'Opened', data: { by: 'ada', at: '2026-11-22T12:00:00.000Z' } }]);
    spec.given([]).when({ type: 'Unlock' }).then([unlocked]);
  });

  it('fails a then that expects other events, more events, or none', () => {
    const when = spec.given([]).when({ type: 'Unlock' });
    expect(() => when.then([{ type: 'Unlocked', data: { by: 'someone else' } }])).toThrow(/strictly equal/);
    expect(() => when.then([unlocked, unlocked])).toThrow(/strictly equal/);
    expect(() => when.then([])).toThrow(/strictly equal/);
    expect(() => spec.given([]).when({ type: 'Open' }).then([])).toThrow('the door is locked');
  });

  it('fails thenNothingHappened when something was decided', () => {
    spec.given([unlocked]).when({ type: 'Unlock' }).thenNothingHappened();
    expect(() => spec.given([]).when({ type: 'Unlock' }).thenNothingHappened()).toThrow(/Unlocked/);
  });

  it('checks the code or the predicate of a DomainError, and returns it', () => {
    const when = spec.given([]).when({ type: 'Open' });
    expect(when.thenThrows('door-locked').message).toBe('the door is locked');
    when.thenThrows((error) => error.message.includes('locked'));
    expect(() => when.thenThrows('door-stuck')).toThrow(/door-stuck/);
    expect(() => when.thenThrows((error) => error.code === 'door-stuck')).toThrow(/predicate rejected door-locked/);
  });

  it('fails thenThrows when nothing is thrown, or when the error is not a DomainError', () => {
    expect(() => spec.given([unlocked]).when({ type: 'Open' }).thenThrows('door-locked')).toThrow(/Opened/);
    expect(() =>
      spec
        .given([])
        .when({ type: 'Kick' })
        .thenThrows(() => true),
    ).toThrow(/instance of DomainError/);
  });
});

describe('expectFoldChangesOnly', () => {
  const base: DoorState = { locked: true, open: false };
  // evolve as it would read with an empty `case 'Opened':` falling into the Unlocked branch.
  const fallsThrough: Pick<typeof door, 'evolve'> = {
    evolve: (state, event) => (event.type === 'Opened' ? { locked: false, open: true } : door.evolve(state, event)),
  };
  const opened: DoorEvent = { type: 'Opened', data: { by: 'ada', at: '2026-11-22T12:00:00.000Z' } };

  it('passes when the event changes exactly its own fields', () => {
    expectFoldChangesOnly(door, base, opened, { open: true });
    expectFoldChangesOnly(door, base, unlocked, { locked: false });
  });

  it('fails when the event also moves a field it does not own', () => {
    expect(() => expectFoldChangesOnly(fallsThrough, base, opened, { open: true })).toThrow(/does not own/);
  });

  it('fails when an own field does not end with the expected value', () => {
    const ignoresUnlocked: Pick<typeof door, 'evolve'> = {
      evolve: (state, event) => (event.type === 'Unlocked' ? state : door.evolve(state, event)),
    };
    expect(() => expectFoldChangesOnly(ignoresUnlocked, base, unlocked, { locked: false })).toThrow(/own fields wrong/);
  });

  it('refuses a row whose change is no change, since it would prove nothing', () => {
    expect(() => expectFoldChangesOnly(door, { locked: false, open: false }, unlocked, { locked: false })).toThrow(
      /pick a base/,
    );
  });
});
