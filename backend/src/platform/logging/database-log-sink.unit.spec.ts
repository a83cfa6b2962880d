import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from './logger.js';
import { DatabaseLogSink, type StoredLogLine } from './database-log-sink.js';
import { scrubPersonalData } from './scrub-personal-data.js';

/** A database that keeps what it is given, or refuses while `down`. */
function fakeTable() {
  const table = {
    rows: [] as StoredLogLine[],
    inserts: [] as number[],
    down: false,
    insert: vi.fn(async (lines: StoredLogLine[]) => {
      if (table.down) throw new Error('connect ECONNREFUSED');
      table.inserts.push(lines.length);
      table.rows.push(...lines);
    }),
  };
  return table;
}

function line(msg: string, level = 'info', extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify({ level, time: new Date().toISOString(), msg, ...extra })}\n`;
}

describe('DatabaseLogSink', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('writes a batch as soon as batchSize lines wait, in one insert, in order', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ batchSize: 3, flushEveryMs: 60_000, report: () => {} });
    sink.attach(table.insert);
    for (const n of [1, 2, 3]) sink.write(line(`line ${n}`));
    await sink.flush();

    expect(table.inserts).toEqual([3]);
    expect(table.rows.map((r) => r.message)).toEqual(['line 1', 'line 2', 'line 3']);
    await sink.close();
  });

  it('writes fewer lines once the interval passes', async () => {
    vi.useFakeTimers();
    const table = fakeTable();
    const sink = new DatabaseLogSink({ batchSize: 200, flushEveryMs: 1000, report: () => {} });
    sink.attach(table.insert);
    sink.write(line('lonely line'));
    expect(table.insert).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(1000);
    expect(table.rows.map((r) => r.message)).toEqual(['lonely line']);
    await sink.close();
  });

  it('keeps lines logged before the database is attached, and stores them once it is', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ report: () => {} });
    sink.write(line('migration applied'));
    sink.attach(table.insert);
    await sink.flush();
    expect(table.rows.map((r) => r.message)).toEqual(['migration applied']);
    await sink.close();
  });

  it('stores info and above only, with the level, time and context of the line', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ instance: 'node-a/1', report: () => {} });
    sink.attach(table.insert);
    sink.write(line('noise', 'debug'));
    sink.write(line('a warning', 'warn', { context: 'HealthController', time: '2025-01-02T03:04:05.000Z' }));
    sink.write(line('numeric level', 50 as unknown as string, { component: 'http' }));
    sink.write('not json at all\n');
    await sink.close();

    expect(table.rows).toEqual([
      {
        loggedAt: new Date('2025-01-02T03:04:05.000Z'),
        level: 'warn',
        message: 'a warning',
        context: 'HealthController',
        instance: 'node-a/1',
      },
      expect.objectContaining({ level: 'error', message: 'numeric level', context: 'http' }),
    ]);
  });

  it('says which request a pino-http line is about, and what an error was', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ report: () => {} });
    sink.attach(table.insert);
    sink.write(
      line('request completed', 'warn', {
        req: { method: 'GET', path: '/api/dash/logs' },
        res: { statusCode: 403 },
        responseTime: 4,
      }),
    );
    sink.write(line('unexpected error', 'fatal', { err: { type: 'TypeError', message: 'x is undefined' } }));
    await sink.close();

    expect(table.rows.map((r) => r.message)).toEqual([
      'request completed: GET /api/dash/logs 403 in 4 ms',
      'unexpected error (TypeError: x is undefined)',
    ]);
  });

  it("keeps the System Log's own reads and health checks out of it (stdout still has them), but not their failures", async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ report: () => {} });
    sink.attach(table.insert);
    const request = (method: string, path: string, statusCode: number, level = 'info') =>
      sink.write(line('request completed', level, { req: { method, path }, res: { statusCode }, responseTime: 3 }));
    request('GET', '/api/dash/logs', 200);
    request('GET', '/api/health', 200);
    request('GET', '/api/health', 503, 'error');
    request('GET', '/api/dash/logs', 500, 'error');
    request('GET', '/api/dash/users', 200);
    request('POST', '/api/dash/logs', 404, 'warn');
    sink.write(line('GET /api/dash/logs is mapped'));
    await sink.close();

    expect(table.rows.map((r) => r.message)).toEqual([
      'request completed: GET /api/health 503 in 3 ms',
      'request completed: GET /api/dash/logs 500 in 3 ms',
      'request completed: GET /api/dash/users 200 in 3 ms',
      'request completed: POST /api/dash/logs 404 in 3 ms',
      'GET /api/dash/logs is mapped',
    ]);
  });

  it('stores no e-mail address or IP address found in a message', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ report: () => {} });
    sink.attach(table.insert);
    sink.write(line('login failed for ada@example.com from 203.0.113.7 and 2001:db8::1'));
    await sink.close();
    expect(table.rows[0]?.message).toBe('login failed for [email] from [ip] and [ip]');
  });

  it('never throws while the database is down: drops and counts, reports once, then says what was lost', async () => {
    const table = fakeTable();
    const reports: string[] = [];
    const sink = new DatabaseLogSink({ batchSize: 2, report: (_level, message) => reports.push(message) });
    sink.attach(table.insert);
    table.down = true;
    for (const n of [1, 2, 3]) expect(() => sink.write(line(`lost ${n}`))).not.toThrow();
    await sink.flush();
    await sink.flush();
    expect(sink.stats.dropped).toBe(3);
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(/ECONNREFUSED/);

    table.down = false;
    sink.write(line('back'));
    await sink.flush();
    expect(table.rows.map((r) => [r.level, r.message])).toEqual([
      ['info', 'back'],
      ['warn', expect.stringMatching(/^3 log lines were not stored/)],
    ]);
    expect(reports[1]).toMatch(/again/);
    await sink.close();
  });

  it('holds at most maxBuffered lines while nothing can be written, counting the rest', async () => {
    const sink = new DatabaseLogSink({ maxBuffered: 5, report: () => {} });
    for (let n = 0; n < 8; n++) sink.write(line(`line ${n}`));
    expect(sink.stats).toMatchObject({ buffered: 5, dropped: 3 });
    await sink.close();
  });

  it('writes what waits on close, and nothing after it', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ flushEveryMs: 60_000, report: () => {} });
    sink.attach(table.insert);
    sink.write(line('shutting down'));
    await sink.close();
    sink.write(line('after close'));
    await sink.flush();
    expect(table.rows.map((r) => r.message)).toEqual(['shutting down']);
  });

  it('takes pino lines as the app logs them, redacted keys and all', async () => {
    const table = fakeTable();
    const sink = new DatabaseLogSink({ report: () => {} });
    sink.attach(table.insert);
    const logger = createLogger('info', sink);
    logger.child({ component: 'mail' }).info({ emailAddress: 'ada@example.com' }, 'mail sent to bob@example.org');
    await sink.close();
    expect(table.rows).toEqual([expect.objectContaining({ message: 'mail sent to [email]', context: 'mail' })]);
  });
});

describe('scrubPersonalData', () => {
  // Not a speed goal: a guard against catastrophic backtracking. A guest decides a logged path's text, and 200 KB of
  // 'a.' took the unbounded e-mail rule tens of seconds of the event loop; linear work takes milliseconds.
  it('scrubs a long run of e-mail-like characters in linear time', () => {
    const started = performance.now();
    expect(scrubPersonalData('a.'.repeat(100_000))).toHaveLength(200_000);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it.each([
    ['sent to ada.lovelace+x@mail.example.co.uk.', 'sent to [email].'],
    ['client 192.168.1.20 connected', 'client [ip] connected'],
    ['peer [2001:0db8:85a3:0000:0000:8a2e:0370:7334]:443', 'peer [[ip]]:443'],
    ['mapped ::ffff:10.0.0.1 and ::1', 'mapped [ip] and [ip]'],
    ['call +44 20 7946 0958 now', 'call [phone] now'],
    ['nats://app:s3cret@nats:4222', 'nats://[credentials]@nats:4222'],
    ['Authorization: Bearer abc.def-ghi', 'Authorization: Bearer [token]'],
    ['reset /reset-password/Zx8kP0qLm3N5vB7cX9sD2fG4hJ6kL8mN1', 'reset /reset-password/[token]'],
  ])('scrubs %s', (input, output) => {
    expect(scrubPersonalData(input)).toBe(output);
  });

  it.each([
    'request completed: GET /api/dash/logs 200 in 3 ms',
    'at 12:30:45 the projector caught up',
    'case 3f1c2a9e-7b4d-4e0a-9c1b-2d3e4f5a6b7c opened',
    'Mapped {/api/health, GET} route',
    'mediasoup 3.12.16 worker started',
  ])('leaves %s alone', (text) => {
    expect(scrubPersonalData(text)).toBe(text);
  });
});
