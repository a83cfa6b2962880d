import { describe, expect, it } from 'vitest';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import { ERASED } from '../../platform/personal-data/personal-data-vault.js';
import { eventLine, matches, parseEventsCommand, stateJson, upTo } from './event-query.js';

const known = { types: new Set(['PostPublished', 'PostLiked']), contexts: new Set(['feed', 'identity']) };
const now = new Date('2026-11-26T12:00:00Z');
const parse = (...argv: string[]) => parseEventsCommand(argv, known, now);

describe('the events CLI command line', () => {
  it('reads each verb and filter', () => {
    expect(parse('ls')).toEqual({ verb: 'ls', prefix: '' });
    expect(parse('ls', 'feed-post-')).toEqual({ verb: 'ls', prefix: 'feed-post-' });
    expect(parse('cat', 'feed-post-1')).toEqual({ verb: 'cat', stream: 'feed-post-1', filters: {} });
    expect(
      parse('all', '--type', 'PostPublished,PostLiked', '--context', 'feed', '--actor', 'system', '--since', '2h'),
    ).toEqual({
      verb: 'all',
      filters: {
        types: new Set(['PostPublished', 'PostLiked']),
        contexts: new Set(['feed']),
        actor: 'system',
        since: new Date('2026-11-26T10:00:00Z'),
      },
    });
    expect(parse('all', '--until', '2026-11-25T08:00:00Z', '--from-position', '12:3')).toMatchObject({
      verb: 'all',
      filters: {
        until: new Date('2026-11-25T08:00:00Z'),
        after: { commit: 12n, prepare: 3n },
      },
    });
  });

  it.each([
    [[], /^usage: /],
    [['tail'], /^unknown verb 'tail'/],
    [['all', '--type', 'PostPublishd'], /^unknown event type PostPublishd; there are: PostLiked, PostPublished/],
    [['all', '--context', 'billing'], /^unknown context billing/],
    [['all', '--since', 'yesterday'], /^--since: 'yesterday' is neither an ISO time/],
    [['all', '--since', '1h', '--until', '2h'], /^--since is after --until/],
    [['all', '--from-position', '12'], /^--from-position: '12' is not a position/],
    [
      ['all', '--from-position', '1:99999999999999999999'],
      /^--from-position: '1:99999999999999999999' is not a position/,
    ],
    [['all', '--from-position', '9223372036854775808:1'], /is not a position/],
    [['all', '--actor'], /^--actor needs a value/],
    [['all', '--colour', 'red'], /^unknown option --colour/],
    [['cat'], /^cat needs one stream/],
    [['ls', '--type', 'PostLiked'], /^ls takes one stream prefix, no options/],
    [['all', 'feed-post-1'], /^all takes no stream \(cat <stream> reads one\): feed-post-1/],
    [['export', 'feed', '--out', 'x'], /^export takes no stream: feed/],
    [['state'], /^state needs one stream/],
    [['state', 'feed-post-1', '--type', 'PostLiked'], /^state takes --at, not filters/],
    [['state', 'feed-post-1', '--at', 'last week'], /^--at: 'last week' is neither an ISO time.* nor a revision/],
    [['all', '--at', '2h'], /^--at only goes with state/],
    [['export'], /^export needs --out <directory>/],
    [['export', '--format', 'csv', '--out', 'x'], /^--format: 'csv' is not one we write/],
    [['all', '--out', 'x'], /^--out only goes with export/],
    [['all', '--with-personal-data'], /^--with-personal-data needs --as <your admin e-mail address>/],
    [['all', '--as', 'ada@example.com'], /^--as only goes with --with-personal-data/],
  ])('says what is wrong with %j', (argv, message) => {
    expect(() => parse(...(argv as string[]))).toThrow(message);
  });
});

describe('the verbs for auditors and analysts', () => {
  it('reads state at a revision or a moment, export, and personal data for an admin', () => {
    expect(parse('state', 'feed-post-1')).toEqual({ verb: 'state', stream: 'feed-post-1' });
    expect(parse('state', 'feed-post-1', '--at', '3')).toEqual({
      verb: 'state',
      stream: 'feed-post-1',
      at: { revision: 3n },
    });
    expect(parse('state', 'feed-post-1', '--at', '7d')).toEqual({
      verb: 'state',
      stream: 'feed-post-1',
      at: { time: new Date('2026-11-19T12:00:00Z') },
    });
    expect(parse('export', '--out', 'out', '--context', 'feed')).toEqual({
      verb: 'export',
      format: 'parquet',
      out: 'out',
      filters: { contexts: new Set(['feed']) },
    });
    expect(parse('cat', 'feed-post-1', '--with-personal-data', '--as', 'ada@example.com')).toEqual({
      verb: 'cat',
      stream: 'feed-post-1',
      filters: {},
      personalDataFor: 'ada@example.com',
    });
  });

  it('folds only up to the moment asked', () => {
    const at = (revision: bigint, occurredAt: string) =>
      ({ revision, metadata: { occurredAt } }) as unknown as RecordedEvent;
    const stream = [at(0n, '2026-11-20T00:00:00Z'), at(1n, '2026-11-22T00:00:00Z'), at(2n, '2026-11-24T00:00:00Z')];
    expect(upTo(stream, undefined)).toHaveLength(3);
    expect(upTo(stream, { revision: 1n }).map((e) => e.revision)).toEqual([0n, 1n]);
    expect(upTo(stream, { time: new Date('2026-11-22T00:00:00Z') }).map((e) => e.revision)).toEqual([0n, 1n]);
    expect(upTo(stream, { time: new Date('2026-11-19T00:00:00Z') })).toEqual([]);
    expect(stateJson({ ids: new Set(['a']), by: new Map([['x', 1n]]) })).toBe('{"ids":["a"],"by":{"x":"1"}}');
  });
});

describe('an event as a line', () => {
  const event = (data: Record<string, unknown>, actor = 'user-1'): RecordedEvent => ({
    id: 'e1',
    streamId: 'feed-post-1',
    revision: 0n,
    position: { commit: 7n, prepare: 2n },
    type: 'PostPublished',
    data,
    metadata: { causationId: 'c', correlationId: 'c', actor, occurredAt: '2026-11-26T11:00:00.000Z', schemaVersion: 1 },
  });
  const schema = { type: 'PostPublished', schemaVersion: 1, personal: ['text'] as const };
  const key = Buffer.from('k');

  it('prints a personal field as a pseudonym, the same for the same value under one key, and keeps erased ones', () => {
    const line = JSON.parse(eventLine(event({ postId: 'p', text: 'Hello Ada' }), 'feed', schema, key));
    expect(line).toMatchObject({
      position: '7:2',
      stream: 'feed-post-1',
      revision: 0,
      type: 'PostPublished',
      context: 'feed',
      time: '2026-11-26T11:00:00.000Z',
      actor: 'user-1',
      data: { postId: 'p', text: expect.stringMatching(/^pseudonym:[\w-]{22}$/) },
    });
    const again = JSON.parse(eventLine(event({ text: 'Hello Ada' }), 'feed', schema, key)).data.text;
    const other = JSON.parse(eventLine(event({ text: 'Hello Bob' }), 'feed', schema, key)).data.text;
    const otherKey = JSON.parse(eventLine(event({ text: 'Hello Ada' }), 'feed', schema, Buffer.from('x'))).data.text;
    expect(again).toBe(line.data.text);
    expect(new Set([line.data.text, other, otherKey]).size).toBe(3);
    expect(JSON.parse(eventLine(event({ text: ERASED }), 'feed', schema, key)).data.text).toEqual(ERASED);
    // For an admin (no pseudonym key): in the clear.
    expect(JSON.parse(eventLine(event({ text: 'Hello Ada' }), 'feed', schema, null)).data.text).toBe('Hello Ada');
  });

  it('keeps a password hash a pseudonym even for an admin, who reads the address beside it in the clear', () => {
    const registered = {
      type: 'UserRegistered',
      schemaVersion: 1,
      personal: ['emailAddress', 'passwordHash'] as const,
    };
    const data = { userId: 'u', emailAddress: 'ada@example.com', passwordHash: '$argon2id$v=19$secret' };
    const shown = JSON.parse(eventLine({ ...event(data), type: 'UserRegistered' }, 'identity', registered, null, key))
      .data as Record<string, string>;
    expect(shown.emailAddress).toBe('ada@example.com');
    expect(shown.passwordHash).toMatch(/^pseudonym:[\w-]{22}$/);
  });

  it('matches filters on type, context, actor and time', () => {
    const e = event({}, 'system');
    expect(matches(e, 'feed', { types: new Set(['PostPublished']), contexts: new Set(['feed']) })).toBe(true);
    expect(matches(e, 'feed', { types: new Set(['PostLiked']) })).toBe(false);
    expect(matches(e, 'feed', { contexts: new Set(['identity']) })).toBe(false);
    expect(matches(e, 'feed', { actor: 'user-1' })).toBe(false);
    expect(matches(e, 'feed', { since: new Date('2026-11-26T11:00:00Z') })).toBe(true);
    expect(matches(e, 'feed', { until: new Date('2026-11-26T10:59:59Z') })).toBe(false);
  });
});
