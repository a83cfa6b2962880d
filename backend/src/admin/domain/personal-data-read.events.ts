import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/**
 * An admin read the event log with personal fields in the clear (`npm run events -- … --with-personal-data`): who,
 * what (the verb and its arguments) and when. Written before the first line is printed, so an export stopped halfway
 * is on record too (DESIGN.md: the events are the audit). It lands in the admin's own stream and audit trail.
 */
export type PersonalDataRead = DomainEvent<
  'PersonalDataRead',
  { staffId: string; verb: string; arguments: string; at: string }
>;

// An id, a verb, the command line an admin typed (stream names, filters, a directory) and a time: nothing personal.
export const personalDataReadEventSchemas: EventSchema[] = [{ type: 'PersonalDataRead', schemaVersion: 1 }];
