import type { AuditActor } from '@serendip/proto';
import type { RecordedEvent } from '../../../platform/event-store/event-store.js';
import { isErased } from '../../../platform/personal-data/personal-data-vault.js';
import { isUuid } from '../../../platform/shared/ids.js';

/**
 * How an event of the log reads to staff, shared by the dashboard's audit trail and the admins' audit API: who acted,
 * the reason given, and which fields nobody is shown.
 */

/** Never shown, whoever asks: secrets, and where evidence files lie. */
export const NEVER_SHOWN: ReadonlySet<string> = new Set(['passwordHash', 'file']);

/** The event's data as a record (every stored event's data is one; anything else reads as no fields). */
export const fieldsOf = (e: RecordedEvent): Record<string, unknown> =>
  (typeof e.data === 'object' && e.data !== null ? e.data : {}) as Record<string, unknown>;

/** A person with their first name (null when unknown or deleted), or a process by its name. */
export function actorOf(actor: string, names: Map<string, string | null>): AuditActor {
  return isUuid(actor)
    ? { kind: 'user', _id: actor, firstName: names.get(actor) ?? null }
    : { kind: 'system', name: actor };
}

/** The reason, note or explanation the event gives, as the log has it (maybe the erasure marker). */
export const reasonOf = (data: Record<string, unknown>): unknown => data.reason ?? data.note ?? data.explanation;

/**
 * The data with every NEVER_SHOWN field left out, however deep (a report's screenshot keeps its SHA-256, not its
 * file), and an erased field as the word 'erased'.
 */
export function shownData(value: unknown): unknown {
  if (isErased(value)) return 'erased';
  if (Array.isArray(value)) return value.map(shownData);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([field]) => !NEVER_SHOWN.has(field))
      .map(([field, inner]) => [field, shownData(inner)]),
  );
}
