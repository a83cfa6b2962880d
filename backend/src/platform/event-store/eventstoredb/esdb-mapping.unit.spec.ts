import type { RecordedEvent as EsdbRecordedEvent } from '@eventstore/db-client';
import { describe, expect, it } from 'vitest';
import { newEvent } from '../event-store.contract.js';
import {
  isAfter,
  isDomainEvent,
  toActualRevision,
  toEsdbExpectedRevision,
  toEventData,
  toLogPosition,
  toRecordedEvent,
} from './esdb-mapping.js';

function stored(overrides: Partial<EsdbRecordedEvent> = {}): EsdbRecordedEvent {
  return {
    streamId: 'user-1',
    id: '9f1c1f9e-3c0a-4a57-9f8e-0d9a1d1c2b3a',
    isJson: true,
    revision: 4n,
    type: 'UserBanned',
    created: new Date(0),
    data: { reason: 'spam' },
    metadata: { actor: 'admin-1' },
    position: { commit: 900n, prepare: 880n },
    ...overrides,
  } as EsdbRecordedEvent;
}

describe('EventStoreDB mapping', () => {
  it('sends no-stream, any and an exact revision as the client spells them', () => {
    expect(toEsdbExpectedRevision('no-stream')).toBe('no_stream');
    expect(toEsdbExpectedRevision('any')).toBe('any');
    expect(toEsdbExpectedRevision(7n)).toBe(7n);
  });

  it('reports a missing stream as no-stream however the server says it', () => {
    expect(toActualRevision('no_stream')).toBe('no-stream');
    expect(toActualRevision(-1n)).toBe('no-stream');
    expect(toActualRevision(0n)).toBe(0n);
    expect(toActualRevision(12n)).toBe(12n);
  });

  it('starts reading at the start of the log for no position or START, else at the position itself', () => {
    expect(toLogPosition(undefined)).toBe('start');
    expect(toLogPosition({ commit: 0n, prepare: 0n })).toBe('start');
    expect(toLogPosition({ commit: 10n, prepare: 8n })).toEqual({ commit: 10n, prepare: 8n });
  });

  it('excludes the position read from and anything before it, ordering by commit then prepare', () => {
    const after = { commit: 10n, prepare: 8n };
    expect(isAfter({ commit: 10n, prepare: 8n }, after)).toBe(false);
    expect(isAfter({ commit: 10n, prepare: 7n }, after)).toBe(false);
    expect(isAfter({ commit: 9n, prepare: 99n }, after)).toBe(false);
    expect(isAfter({ commit: 10n, prepare: 9n }, after)).toBe(true);
    expect(isAfter({ commit: 11n, prepare: 0n }, after)).toBe(true);
    expect(isAfter({ commit: 0n, prepare: 0n }, undefined)).toBe(true);
  });

  it('keeps our JSON events and hides the server bookkeeping and binary events', () => {
    expect(isDomainEvent(stored())).toBe(true);
    expect(isDomainEvent(stored({ type: '$statsCollected', streamId: '$stats-127.0.0.1:2113' }))).toBe(false);
    expect(isDomainEvent(stored({ type: '$>' }))).toBe(false);
    expect(isDomainEvent(stored({ type: '$metadata', streamId: '$$user-1' }))).toBe(false);
    expect(isDomainEvent(stored({ isJson: false, data: new Uint8Array([1]) } as Partial<EsdbRecordedEvent>))).toBe(
      false,
    );
  });

  it('writes an event as JSON under its own id, with its metadata', () => {
    const event = newEvent('ReportFiled', { reason: 'spam' });
    expect(toEventData(event)).toEqual({
      id: event.id,
      contentType: 'application/json',
      type: 'ReportFiled',
      data: { reason: 'spam' },
      metadata: event.metadata,
    });
  });

  it('reads an event back with its stream, revision and log position', () => {
    expect(toRecordedEvent(stored())).toEqual({
      id: '9f1c1f9e-3c0a-4a57-9f8e-0d9a1d1c2b3a',
      streamId: 'user-1',
      revision: 4n,
      type: 'UserBanned',
      data: { reason: 'spam' },
      metadata: { actor: 'admin-1' },
      position: { commit: 900n, prepare: 880n },
    });
  });

  it('refuses an event without a log position (a server older than 22.6) rather than invent one', () => {
    expect(() => toRecordedEvent(stored({ position: undefined }))).toThrow(/needs 22.6 or later/);
    const unset = { commit: 2n ** 64n - 1n, prepare: 2n ** 64n - 1n };
    expect(() => toRecordedEvent(stored({ position: unset }))).toThrow(/needs 22.6 or later/);
  });
});
