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

/**
 * What kind of "no" an error is; the one HTTP filter (platform/http/domain-error.filter.ts) and the socket gateways
 * map it: invalid 400, unauthenticated 401, forbidden 403, not-found 404, conflict 409, too-many 429,
 * unavailable 503.
 */
export type DomainErrorKind =
  'invalid' | 'unauthenticated' | 'forbidden' | 'not-found' | 'conflict' | 'too-many' | 'unavailable';

export interface DomainErrorOptions {
  kind?: DomainErrorKind;
  /** The request field the problem is about: the answer says "field: message", as the validation pipe does. */
  field?: string;
  /** For too-many: when to try again. */
  retryAfterSeconds?: number;
}

/**
 * A rule said no; `code` is stable for clients, `message` is for people. Deciders, command handlers and services throw
 * these, never Nest's HTTP exceptions: the transport decides how a kind is answered.
 */
export class DomainError extends Error {
  override name = 'DomainError';
  readonly kind: DomainErrorKind;
  readonly field: string | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly code: string,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message);
    this.kind = options.kind ?? 'invalid';
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** Bad input in one field: 400 with "field: problem". */
export const invalidField = (field: string, problem: string, code = 'invalid-field') =>
  new DomainError(code, problem, { kind: 'invalid', field });

/** The stream kept changing under us: the caller may try again later (HTTP 409). */
export class ConcurrencyConflict extends DomainError {
  override name = 'ConcurrencyConflict';
  constructor(message: string) {
    super('concurrency-conflict', message, { kind: 'conflict' });
  }
}
