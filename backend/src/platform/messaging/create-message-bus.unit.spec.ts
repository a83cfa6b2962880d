import { pino } from 'pino';
import { expect, it } from 'vitest';
import { createMessageBus } from './create-message-bus.js';
import { InProcessBus } from './in-process-bus.js';
import { NatsBus } from './nats-bus.js';

const logger = pino({ level: 'silent' });

it('uses the in-process bus without NATS_URL, and NATS with it', async () => {
  const local = createMessageBus({ logger });
  expect(local).toBeInstanceOf(InProcessBus);
  // Port 1 has no server: the bus is made anyway and keeps trying in the background until closed.
  const nats = createMessageBus({ natsUrl: 'nats://127.0.0.1:1', logger });
  expect(nats).toBeInstanceOf(NatsBus);
  await Promise.all([local.close(), nats.close()]);
});
