import { Inject, Injectable } from '@nestjs/common';
import type { StaffAccessWhat } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { type StaffViewedUser, staffAccessStream } from '../../domain/staff-access.events.js';

const EVENT_ID_NAMESPACE = 'b6a0d7a4-3c5e-4f61-9d2b-7e8f0a1c2d3e';

/**
 * Appends an access record (StaffViewedUser) to the staff member's stream. Nothing is decided (a look is a fact), so
 * the stream is not read first: appending at 'any' keeps a busy moderator's stream from being folded on every click.
 * The event id comes from the command id, so a retried request records the look once.
 */
@Injectable()
export class RecordStaffAccess {
  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  async record(subjectId: string, what: StaffAccessWhat, meta: CommandMetadata): Promise<void> {
    const staffId = meta.actor;
    const event: StaffViewedUser = {
      type: 'StaffViewedUser',
      data: { staffId, subjectId, what, at: meta.now.toISOString() },
    };
    await this.core.store.append(
      staffAccessStream(staffId),
      [
        {
          id: uuidv5(`${staffId}:${subjectId}:${what}:${meta.commandId}`, EVENT_ID_NAMESPACE),
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
