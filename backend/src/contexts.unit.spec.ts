import { describe, expect, it } from 'vitest';
import { contexts } from './contexts.js';
import type { RecordedEvent } from './platform/event-store/event-store.js';

/**
 * Every event a context declares is known to its integration-event mapper (published, or deliberately kept inside).
 * A type the mapper does not know throws on every publish, and the publisher retries it forever: everything the
 * context stores after it would never reach the other contexts or anyone's screen.
 */
describe('the contexts’ integration-event mappers', () => {
  for (const context of contexts) {
    if (!context.integrationEvents) continue;
    const map = context.integrationEvents;
    for (const { type } of context.eventSchemas) {
      it(`${context.name} knows ${type}`, () => {
        const recorded = {
          id: '00000000-0000-4000-8000-000000000000',
          type,
          data: {},
          metadata: { occurredAt: new Date(0).toISOString() },
          streamId: `${context.name}-test`,
          revision: 0n,
          position: { commit: 0n, prepare: 0n },
        } as unknown as RecordedEvent;
        // The empty data may trip a mapper that reads it; only "I do not know this type" is the failure looked for.
        let failure: unknown;
        try {
          map(recorded);
        } catch (error) {
          failure = error;
        }
        expect(String(failure ?? '')).not.toMatch(/unhandled event/);
      });
    }
  }
});
