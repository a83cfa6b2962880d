import type { StaffAccessWhat } from '@serendip/proto';
import type { DomainEvent } from '../../platform/cqrs/decider.js';
import type { EventSchema } from '../../platform/personal-data/event-schemas.js';

/**
 * A staff member looked at a person's details, audit trail or evidence (spec 6 Admin; DESIGN.md: the events are the
 * audit). Staff are audited like everyone else: the record shows in the subject's trail and in the staff member's own.
 */
export type StaffViewedUser = DomainEvent<
  'StaffViewedUser',
  /** `stream`: which stream's history, for a look at one ('stream-history'). */
  { staffId: string; subjectId: string; what: StaffAccessWhat; at: string; stream?: string }
>;

/** One stream per staff member: what they looked at, in order. */
export const staffAccessStream = (staffId: string) => `admin-staff-${staffId}`;

// Ids, a word and a time: nothing personal.
export const staffAccessEventSchemas: EventSchema[] = [{ type: 'StaffViewedUser', schemaVersion: 1 }];
