import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../../test-support/api-client.js';
import { signedInAdmin, signedInModerator } from '../../../test-support/admins.js';
import { startTestApp, type TestApp } from '../../../test-support/test-app.js';
import { videoUser } from '../../../test-support/video-users.js';
import { API_DOCS_PATHS } from '../api-docs.js';
import { eventLog } from './event-log-head.js';
import { type FuzzRequest, type OpenApi, operationRequests } from './openapi-requests.js';

/**
 * Every operation of the OpenAPI document, fuzzed from its own schemas (DESIGN.md "Conventions": bad input gets a
 * 400 with a clear message, never a 500, and changes nothing). FUZZ_SEED and FUZZ_RUNS replay or widen a run;
 * FUZZ_FAILURES=<file> writes each request answered 5xx there whole.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

/** Internals an answer must never show: stack frames, file paths, SQL and Postgres' own messages, error class names. */
const LEAK =
  /\bat (?:Object\.|async |new )|\bat [\w$.<>]+ \(|\/(?:work|home|usr|src|app|node_modules)\/|\.[cm]?[jt]s:\d+|\b(?:select|insert into|update|delete from)\b[^"]*"\w+"|violates [\w ]*constraint|duplicate key|relation "|syntax error at|invalid input syntax|\b(?:Type|Reference|Range|Syntax)Error\b|\bError: |root:x:0:0/i;

/** Operations that end the caller's session or account when they succeed: run with a throwaway member. */
const DESTRUCTIVE = new Set([
  'POST /api/auth/logout',
  'POST /api/auth/refresh-token',
  'POST /api/user/delete-account',
  'POST /api/sessions/delete',
  'POST /api/sessions/delete-others',
]);

/** 2xx answers that show an operator the system's own log or mail: their text is the product here. */
const OPERATOR_TEXT = new Set(['GET /api/dash/logs', 'GET /api/dev/outbox']);

type Identity = 'nobody' | 'member' | 'moderator' | 'admin';
const IDENTITIES = ['nobody', 'member', 'moderator', 'admin'] as const;

describe('every HTTP operation, fuzzed from the OpenAPI document', () => {
  let test: TestApp;
  let log: ReturnType<typeof eventLog>;
  let document: OpenApi;
  let clients: Record<Identity, ApiClient>;
  let knownIds: string[];
  let addresses = 0;

  beforeAll(async () => {
    test = await startTestApp();
    log = eventLog(test.db);
    document = (await (await fetch(`${test.base}${API_DOCS_PATHS.openApi}`)).json()) as OpenApi;
    const [member, target, { admin, adminId }, { moderator, moderatorId }] = await Promise.all([
      videoUser(test.base, { firstName: 'Fuzz' }),
      videoUser(test.base, { firstName: 'Target' }),
      signedInAdmin(test),
      signedInModerator(test),
    ]);
    clients = { nobody: new ApiClient(test.base), member: member.api, moderator, admin };
    // Things of the target's for path ids to name: a post with a comment and a reply.
    const post = await target.api.call('POST', '/feed/posts', { text: 'A post to fuzz around' });
    const comment = await target.api.call('POST', `/feed/posts/${post.body._id}/comments`, { text: 'A comment' });
    const reply = await target.api.call('POST', `/feed/comments/${comment.body._id}/replies`, { text: 'A reply' });
    expect([post.status, comment.status, reply.status]).toEqual([201, 201, 201]);
    knownIds = [
      member.user._id,
      target.user._id,
      adminId,
      moderatorId,
      'me',
      post.body._id,
      comment.body._id,
      reply.body._id,
    ];
  }, 60_000);

  afterAll(async () => {
    await test?.close();
  });

  /** As the browser sends it: the session cookie, its own Origin, one client address of its own per request. */
  async function send(client: ApiClient, request: FuzzRequest) {
    const n = addresses++;
    const res = await fetch(`${test.base}${request.url}`, {
      method: request.method,
      headers: {
        Cookie: client.cookieHeader(),
        Origin: test.base,
        'Sec-Fetch-Site': 'same-origin',
        'X-Forwarded-For': `2001:db8:f022::${(n % 65_000).toString(16)}`,
        ...request.headers,
      },
      // fetch's types want an ArrayBuffer-backed view; fast-check's bytes are one.
      body: request.method === 'GET' || request.method === 'HEAD' ? undefined : (request.body as BodyInit | undefined),
    });
    return { status: res.status, text: await res.text() };
  }

  it(
    'answers no 5xx, shows no internals, and a refusal appends no event',
    async () => {
      console.log(`HTTP fuzz: seed ${SEED}, ${RUNS} runs per operation and identity (FUZZ_SEED, FUZZ_RUNS)`);
      const started = Date.now();
      const byStatus = new Map<number, number>();
      const problems: string[] = [];
      let operations = 0;
      let requests = 0;
      let throwaway: ApiClient | undefined;
      const entries = Object.entries(document.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => ({ path, method })),
      );
      for (const [index, { path, method }] of entries.entries()) {
        operations++;
        const name = `${method.toUpperCase()} ${path}`;
        const samples = fc.sample(operationRequests(document, method, path, knownIds), {
          seed: SEED + index,
          numRuns: RUNS * IDENTITIES.length,
        });
        for (const [i, request] of samples.entries()) {
          const identity = IDENTITIES[i % IDENTITIES.length]!;
          // Staff sessions are kept for the rest of the run (signing staff in again takes a mailed code).
          if (DESTRUCTIVE.has(name) && (identity === 'admin' || identity === 'moderator')) continue;
          let client = clients[identity];
          if (DESTRUCTIVE.has(name) && identity === 'member')
            client = throwaway ??= (await videoUser(test.base, { confirmed: false })).api;
          const before = await log.head();
          const { status, text } = await send(client, request);
          requests++;
          byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
          const shown = `${identity} ${request.method} ${request.url.slice(0, 200)} ${request.headers['Content-Type'] ?? ''} ${String(request.body ?? '').slice(0, 200)}`;
          if (status >= 500) problems.push(`${status} ${text.slice(0, 200)} <- ${shown}`);
          if (status >= 500 && process.env.FUZZ_FAILURES)
            appendFileSync(
              process.env.FUZZ_FAILURES,
              `${JSON.stringify({ identity, ...request, body: String(request.body) })}\n`,
            );
          const leak = LEAK.exec(text);
          if (leak && !(status < 300 && OPERATOR_TEXT.has(name)))
            problems.push(`${status} shows "${leak[0]}": ${text.slice(0, 200)} <- ${shown}`);
          if (status >= 400 && status < 500) {
            if ((await log.head()) !== before)
              problems.push(`${status} appended ${(await log.typesAfter(before)).join(', ')} <- ${shown}`);
          }
          if (DESTRUCTIVE.has(name) && identity === 'member' && status < 300) throwaway = undefined;
          // What a success sets going (a ban's process managers, a sign-up's mail) may append a moment later: let it
          // land before the next request, so a refusal is not blamed for it.
          if (status < 300) await log.settled();
        }
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const statuses = [...byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`);
      console.log(`HTTP fuzz: ${operations} operations, ${requests} requests in ${seconds} s; ${statuses.join(', ')}`);
      // An error the answers hid (a rejected promise after the answer, a failed mail) is still a bug.
      const { rows } = await sql<{
        message: string;
      }>`select message from app_log where level in ('error', 'fatal')`.execute(test.db);
      for (const row of rows) problems.push(`server error log: ${row.message.slice(0, 300)}`);
      expect(problems).toEqual([]);
    },
    5 * 60_000,
  );
});
