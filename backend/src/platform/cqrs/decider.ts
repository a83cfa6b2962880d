/** A domain event before it is stored: what happened, in the product's words. */
export interface DomainEvent<Type extends string = string, Data = unknown> {
  type: Type;
  data: Data;
}

/** What a decision may depend on besides the command and the state: fixed by the caller, so tests can fix it. */
export interface DecisionContext {
  now: Date;
  actor: string;
}

/**
 * An aggregate as pure functions (STYLE.md): `evolve` folds past events into state, `decide` turns a command
 * into new events or throws a DomainError. No I/O, no clock, no random ids.
 */
export interface Decider<Command, State, Event extends DomainEvent> {
  initialState: State;
  evolve(state: State, event: Event): State;
  decide(command: Command, state: State, context: DecisionContext): Event[];
}

/** A rule of the domain said no; `code` is stable for clients, `message` is for people. */
export class DomainError extends Error {
  override name = 'DomainError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The stream kept changing under us: the caller may try again later (HTTP 409). */
export class ConcurrencyConflict extends Error {
  override name = 'ConcurrencyConflict';
}
