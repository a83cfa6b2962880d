import type { Kysely } from 'kysely';
import type { Database } from '../../platform/database/schema.js';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { Projection } from '../../platform/projections/projection.js';
import type { ServiceInstanceEvent } from '../domain/service-instance.events.js';

/** The System Log read model (spec 2 admin dashboard): one line per start and stop of a backend process. */
export const serverLogProjection: Projection = {
  name: 'ops.server-log',

  canHandle: (event) => event.type === 'ServiceStarted' || event.type === 'ServiceStopped',

  async apply(trx: Kysely<Database>, recorded: RecordedEvent) {
    const event = recorded as unknown as ServiceInstanceEvent;
    const timestamp = recorded.metadata.occurredAt;
    switch (event.type) {
      case 'ServiceStarted':
        await trx
          .insertInto('server_log')
          .values({
            timestamp,
            level: 'info',
            instance: event.data.instance,
            message: `Backend started (pid ${event.data.pid}, node ${event.data.node})`,
          })
          .execute();
        return;
      case 'ServiceStopped':
        await trx
          .insertInto('server_log')
          .values({
            timestamp,
            level: 'info',
            instance: event.data.instance,
            message: `Backend stopping (${event.data.reason})`,
          })
          .execute();
        return;
      default: {
        const unknown: never = event;
        throw new Error(`unhandled event ${(unknown as { type: string }).type}`);
      }
    }
  },

  async reset(trx) {
    await trx.deleteFrom('server_log').execute();
  },
};
