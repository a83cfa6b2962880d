import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { StaffAccessWhat } from '@serendip/proto';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { type StaffViewedUser, staffAccessStream } from '../../domain/staff-access.events.js';

/**
 * Appends an access record (StaffViewedUser) to the staff member's stream. Nothing is decided (a look is a fact), so
 * the stream is not read first: appending at 'any' keeps a busy moderator's stream from being folded on every click.
 * Every read is its own look: the event id is new each time, never the command id (which a caller's Idempotency-Key
 * fixes, and which would fold two looks, or two pages of one trail, into one record).
 */
@Injectable()
export class RecordStaffAccess {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  /** `stream`: the stream whose history was read ('stream-history'), so the record says which. */
  async record(subjectId: string, what: StaffAccessWhat, meta: CommandMetadata, stream?: string): Promise<void> {
    const staffId = meta.actor;
    const event: StaffViewedUser = {
      type: 'StaffViewedUser',
      data: { staffId, subjectId, what, at: meta.now.toISOString(), ...(stream ? { stream } : {}) },
    };
    await this.core.store.append(
      staffAccessStream(staffId),
      [
        {
          id: randomUUID(),
          type: event.type,
          data: event.data,
          metadata: {
            causationId: meta.commandId,
            correlationId: meta.correlationId,
            actor: staffId,
            occurredAt: meta.now.toISOString(),
            schemaVersion: this.core.schemas.get(event.type).schemaVersion,
          },
        },
      ],
      'any',
    );
  }
}
