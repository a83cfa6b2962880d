import type { Logger } from '@nestjs/common';
import type { z } from 'zod/mini';
import type { BusSubscription, MessageBus } from './message-bus.js';
import { eventSubject } from './subjects.js';

/**
 * A durable subscription to one integration event (DESIGN.md "Fan-out: NATS"), shared by all nodes: each event is
 * handled once, also one published while every node was down. Its data is checked against the proto contract; an
 * event that does not fit is dropped with a warning (a retry cannot mend it). `handle` gets the data and the event's id.
 */
export function subscribeToIntegrationEvent<Schema extends z.ZodMiniType>(
  bus: MessageBus,
  { context, type, schema, durable }: { context: string; type: string; schema: Schema; durable: string },
  logger: Pick<Logger, 'warn'>,
  handle: (data: z.infer<Schema>, eventId: string) => Promise<void>,
): BusSubscription {
  return bus.subscribe(
    eventSubject(context, type),
    async (message) => {
      const event = message.data as { id?: unknown; data?: unknown } | null;
      const data = schema.safeParse(event?.data);
      if (!data.success || typeof event?.id !== 'string') {
        logger.warn(`a malformed ${type} was dropped`);
        return;
      }
      await handle(data.data, event.id);
    },
    { durable },
  );
}
