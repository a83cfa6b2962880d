/**
 * Integration events: what one context tells the others (and the socket gateways) after its domain events are
 * stored. Published on subject `evt.<context>.<type>`; `id` is the domain event's id (derived from it for a second event
 * made from the same one), so a repeat is dropped. Never carries personal data: mappers see those fields erased.
 * These are contracts, not the stored domain types: a context may change its events without breaking readers.
 */
export interface IntegrationEvent<Type extends string = string, Data = unknown> {
  id: string;
  context: string;
  type: Type;
  /** ISO-8601 */
  occurredAt: string;
  data: Data;
}
