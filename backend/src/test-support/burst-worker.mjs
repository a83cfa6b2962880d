// A process to kill: runs ops commands in a burst (8 at a time) with the projections live, printing
// `ack <commandId>` for each command whose append the store acknowledged. Built code only: run after `tsc -b`.
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { contexts } from '../../dist/contexts.js';
import { serviceInstance } from '../../dist/ops/domain/service-instance.decider.js';
import { serviceInstanceStream } from '../../dist/ops/domain/service-instance.events.js';
import { executeDecider } from '../../dist/platform/cqrs/execute-decider.js';
import { createDb } from '../../dist/platform/database/database.js';
import { EventCore } from '../../dist/platform/event-core/event-core.js';

const url = process.env.DATABASE_URL;
const logger = pino({ level: 'silent' });
const db = createDb(url);
const core = await EventCore.create({
  db,
  databaseUrl: url,
  keyEncryptionKey: Buffer.from(process.env.PERSONAL_DATA_KEY, 'base64'),
  contexts,
  logger,
});
await core.start();

async function writer() {
  for (;;) {
    const instance = randomUUID();
    const commandId = randomUUID();
    const command = { type: 'StartService', instance, pid: process.pid, node: process.version, roles: ['api'] };
    await executeDecider(core, serviceInstanceStream(instance), serviceInstance, command, {
      commandId,
      correlationId: commandId,
      actor: 'system',
      now: new Date(),
    });
    process.stdout.write(`ack ${commandId}\n`);
  }
}
await Promise.all(Array.from({ length: 8 }, writer));
