import type { Logger } from 'pino';
import { InProcessBus } from './in-process-bus.js';
import type { MessageBus } from './message-bus.js';
import { NatsBus } from './nats-bus.js';

/** DESIGN.md "Fan-out: NATS": NATS when NATS_URL is set, otherwise the in-process bus (one process). */
export function createMessageBus({ natsUrl, logger }: { natsUrl?: string; logger: Logger }): MessageBus {
  return natsUrl ? new NatsBus({ url: natsUrl, logger }) : new InProcessBus(logger);
}
