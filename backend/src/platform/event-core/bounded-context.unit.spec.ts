import { describe, expect, it } from 'vitest';
import { contexts } from '../../contexts.js';
import type { RecordedEvent } from '../event-store/event-store.js';
import { aggregateOf, integrationMappers } from './bounded-context.js';

function recorded(type: string, data: unknown): RecordedEvent {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    type,
    data,
    streamId: 'any-1',
    revision: 0n,
    position: { commit: 1n, prepare: 1n },
    metadata: {
      causationId: 'c',
      correlationId: 'c',
      actor: 'system',
      occurredAt: '2026-11-24T12:00:00.000Z',
      schemaVersion: 1,
    },
  };
}

describe('integration events: each context maps only its own events (every stored event passes every mapper)', () => {
  const mappers = integrationMappers(contexts);
  const mapAll = (event: RecordedEvent) => Object.values(mappers).flatMap((map) => map(event));

  it('makes one ops event of a service start, and no context chokes on it', () => {
    const started = recorded('ServiceStarted', { instance: 'i-1', roles: ['api'], pid: 1, version: '1' });
    expect(mapAll(started)).toEqual([expect.objectContaining({ context: 'ops', type: 'ServiceStarted' })]);
  });

  it('makes one matching event of a pairing, and nothing of another context', () => {
    const paired = recorded('MatchPaired', {
      matchId: 'm-1',
      sides: [
        { userId: 'a', filters: {}, waitedMs: 0 },
        { userId: 'b', filters: {}, waitedMs: 0 },
      ],
    });
    expect(mapAll(paired)).toEqual([
      expect.objectContaining({
        context: 'matching',
        type: 'MatchPaired',
        data: { matchId: 'm-1', userIds: ['a', 'b'] },
      }),
    ]);
    expect(mapAll(recorded('UserRegistered', {}))).toEqual([]);
  });
});

describe('aggregates by stream: what `npm run events -- state` folds a stream with', () => {
  it('finds the decider owning a stream, the longest prefix first', () => {
    const fold = (stream: string, events: { type: string; data: unknown }[]) =>
      aggregateOf(contexts, stream)?.fold(events);
    // moderation-report-… is a report, not a standing (moderation-<user>).
    expect(aggregateOf(contexts, 'moderation-report-1')?.streamPrefix).toBe('moderation-report-');
    expect(aggregateOf(contexts, 'moderation-1')?.streamPrefix).toBe('moderation-');
    expect(aggregateOf(contexts, 'notification-inbox-1')?.streamPrefix).toBe('notification-inbox-');
    expect(aggregateOf(contexts, 'notification-1')?.streamPrefix).toBe('notification-');
    expect(aggregateOf(contexts, 'feed-like-p-u')?.streamPrefix).toBe('feed-like-');
    expect(aggregateOf(contexts, 'billing-1')).toBeUndefined();
    expect(fold('feed-like-p-u', [{ type: 'PostLiked', data: { postId: 'p', userId: 'u' } }])).toEqual({ liked: true });
  });
});
