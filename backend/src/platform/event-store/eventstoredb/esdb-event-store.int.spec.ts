import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEventStoreContract, newEvent, readEverything } from '../event-store.contract.js';
import { EsdbEventStore } from './esdb-event-store.js';

// DESIGN.md: no EventStoreDB server runs on our machines, so this suite runs only against EVENTSTORE_URL and
// otherwise says plainly, test by test, that it was skipped.
const url = process.env.EVENTSTORE_URL;
if (!url) {
  console.warn(
    'EventStoreDB contract suite skipped: EVENTSTORE_URL is not set (no EventStoreDB server can run on this machine)',
  );
}

// Bounded: a wrong URL or a server that is down fails the suite with the reason instead of hanging.
const connect = () => EsdbEventStore.connect(url!, { timeoutMs: 10_000 });

describe.skipIf(!url)('EventStoreDB adapter (EVENTSTORE_URL)', () => {
  // Stream names are unique per test (the contract adds a UUID), so a long-lived server can be reused.
  describeEventStoreContract('EventStoreDB', async () => {
    const store = await connect();
    return { store, dispose: () => store.close() };
  });

  describe('log positions', () => {
    let store: EsdbEventStore;
    beforeAll(async () => {
      store = await connect();
    });
    afterAll(async () => store?.close());

    // Projections wait for an append's position and checkpoint the positions they were handed: all must agree.
    it('gives an event the same position from its append, its stream and the log of all events', async () => {
      const single = `position-${randomUUID()}`;
      const several = `position-${randomUUID()}`;
      const one = await store.append(single, [newEvent()], 'no-stream');
      const three = await store.append(several, [newEvent(), newEvent(), newEvent()], 'no-stream');
      const fromStreams = [...(await store.readStream(single)), ...(await store.readStream(several))];
      const fromAll = (await readEverything(store)).filter((e) => e.streamId === single || e.streamId === several);
      expect(fromAll.map((e) => e.position)).toEqual(fromStreams.map((e) => e.position));
      expect(one.position).toEqual(fromStreams[0]!.position);
      expect(three.position).toEqual(fromStreams[3]!.position);
    });
  });
});
