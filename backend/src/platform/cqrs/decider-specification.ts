import { expect } from 'vitest';
import { type DecisionContext, type Decider, type DomainEvent, DomainError } from './decider.js';

/**
 * Given/when/then for a decider, after emmett's `DeciderSpecification` (STYLE.md): the given events are folded
 * with the decider's own `evolve`, so every spec exercises `evolve` and `decide` together, on plain objects.
 * It asserts with vitest's `expect`, so only spec files import it.
 */
export interface DeciderSpecification<Command, Event extends DomainEvent> {
  given(
    events: Event[],
    context?: DecisionContext,
  ): {
    when(command: Command): DecisionExpectations<Event>;
  };
}

export interface DecisionExpectations<Event extends DomainEvent> {
  /** Exactly these events, in this order. */
  then(expected: Event[]): void;
  /** Accepted, and nothing to record (e.g. the state already is what the command asks for). */
  thenNothingHappened(): void;
  /** Refused by a rule of the domain: a DomainError with this code, or one the predicate accepts. Returns it. */
  thenThrows(expected: string | ((error: DomainError) => boolean)): DomainError;
}

/** For decisions that depend on neither time nor actor; pass a context to `given` when one does (STYLE.md rule 2). */
export const testDecisionContext: DecisionContext = { now: new Date('2026-01-01T00:00:00Z'), actor: 'test' };

export const DeciderSpecification = {
  for<Command, State, Event extends DomainEvent>(
    decider: Decider<Command, State, Event>,
  ): DeciderSpecification<Command, Event> {
    return {
      given: (events, context = testDecisionContext) => ({
        when: (command) => {
          const decide = () =>
            decider.decide(
              command,
              events.reduce((state, event) => decider.evolve(state, event), decider.initialState),
              context,
            );
          return {
            then: (expected) => expect(decide()).toStrictEqual(expected),
            thenNothingHappened: () => expect(decide()).toStrictEqual([]),
            thenThrows: (expected) => expectDomainError(decide, expected),
          };
        },
      }),
    };
  },
};

function expectDomainError(decide: () => unknown[], expected: string | ((error: DomainError) => boolean)) {
  let decided: unknown[];
  try {
    decided = decide();
  } catch (error) {
    // Anything but a DomainError is a bug in the decider, not a rule saying no.
    expect(error).toBeInstanceOf(DomainError);
    const refusal = error as DomainError;
    if (typeof expected === 'string') expect(refusal.code, refusal.message).toBe(expected);
    else expect(expected(refusal), `the predicate rejected ${refusal.code}: ${refusal.message}`).toBe(true);
    return refusal;
  }
  return expect.unreachable(`expected a DomainError, but the decider decided ${JSON.stringify(decided)}`);
}

/** Every field that any variant of State has. */
type StateField<State> = State extends unknown ? keyof State : never;
/** The field's values across the variants; undefined where a variant has no such field. */
type StateValue<State, Field extends PropertyKey> = State extends unknown
  ? Field extends keyof State
    ? State[Field]
    : undefined
  : never;
/** The fields an event owns, with their values after it; `undefined` means the event removes the field. */
export type StateChanges<State> = { [Field in StateField<State>]?: StateValue<State, Field> };

/**
 * One row per event type, keyed by type, so an event type added to the union without a row is a type error
 * rather than an untested branch of `evolve`. `on` overrides the table's representative state for that row.
 */
export type EvolveTable<State, Event extends DomainEvent> = {
  [Type in Event['type']]: { on?: State; event: Extract<Event, { type: Type }>; changes: StateChanges<State> };
};

/**
 * Folds one event onto `base` and expects it to change exactly `changes`: every other field stays deep-equal to
 * `base`. An empty `case` that falls through into its neighbour's branch (STYLE.md, "What our own code taught
 * us") shows up as a field the event does not own that moved.
 */
export function expectFoldChangesOnly<State extends object, Event extends DomainEvent>(
  decider: Pick<Decider<unknown, State, Event>, 'evolve'>,
  base: State,
  event: Event,
  changes: StateChanges<State>,
): void {
  const own = Object.keys(changes);
  const field = (state: object, name: string) => (state as Record<string, unknown>)[name];
  // A row whose "change" is the value the base already has would pass even if evolve ignored the event.
  for (const name of own) {
    expect(changes[name as keyof typeof changes], `${event.type}: pick a base where ${name} differs`).not.toStrictEqual(
      field(base, name),
    );
  }
  const after = decider.evolve(base, event);
  const notOwn = (state: object) => Object.fromEntries(Object.entries(state).filter(([name]) => !own.includes(name)));
  expect(notOwn(after), `${event.type} changed fields it does not own`).toStrictEqual(notOwn(base));
  expect(
    Object.fromEntries(own.map((name) => [name, field(after, name)])),
    `${event.type} set its own fields wrong`,
  ).toStrictEqual(changes);
}
