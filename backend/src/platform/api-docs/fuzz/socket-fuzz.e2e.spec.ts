import fc from 'fast-check';
import { sql } from 'kysely';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../../test-support/test-app.js';
import { ANYONE, nextEvent, openSystemSocket, type VideoUser, videoUser } from '../../../test-support/video-users.js';
import { API_DOCS_PATHS } from '../api-docs.js';
import { eventLog } from './event-log-head.js';
import { bodyValue, hostileValue, type Schema } from './schema-arbitraries.js';

/**
 * Every client-to-server event of the AsyncAPI document, fuzzed from its payload schema: the server answers each
 * acknowledged event with its answer or an error with a reason, appends nothing to the event log when it refuses,
 * shows no internals, logs no error, and keeps answering. FUZZ_SEED and FUZZ_SOCKET_RUNS replay or widen a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_SOCKET_RUNS ?? 50);

const LEAK =
  /\bat (?:Object\.|async |new )|\bat [\w$.<>]+ \(|\/(?:work|home|usr|src|app|node_modules)\/|\.[cm]?[jt]s:\d+|violates [\w ]*constraint|relation "|invalid input syntax|\b(?:Type|Reference|Range|Syntax)Error\b|\bError: /i;

interface AsyncApi {
  channels: Record<string, { address: string; messages: Record<string, { name: string; payload?: Schema }> }>;
  components: { schemas: Record<string, Schema> };
}

type AnySocket = Socket<Record<string, (...args: unknown[]) => void>, Record<string, (...args: unknown[]) => void>>;

describe('every socket event, fuzzed from the AsyncAPI document', () => {
  let test: TestApp;
  let log: ReturnType<typeof eventLog>;
  let document: AsyncApi;
  /** One person per event: the video namespace's per-person limit (200 events in 10 s) would refuse most of a run. */
  let people: VideoUser[];

  beforeAll(async () => {
    test = await startTestApp();
    log = eventLog(test.db);
    document = (await (await fetch(`${test.base}${API_DOCS_PATHS.asyncApi}`)).json()) as AsyncApi;
    const events = Object.values(document.channels)
      .flatMap((c) => Object.keys(c.messages))
      .filter((key) => key.startsWith('fromClient_') && !key.endsWith('_ack')).length;
    people = [];
    // A few at a time: sign-ups hash passwords, and this machine has two cores. Two per event: one fuzzes, in a
    // call with the other, so the relays reach past "not in a call".
    while (people.length <= 2 * events)
      people.push(...(await Promise.all([1, 2, 3, 4].map(() => videoUser(test.base, { firstName: 'Fuzz' })))));
  }, 60_000);

  afterAll(async () => {
    await test?.close();
  });

  async function open(address: string, person: VideoUser): Promise<AnySocket> {
    return (address === '/video' ? await person.connect() : await openSystemSocket(test.base, person.api)) as never;
  }

  /** `socket`'s person and `partner` matched with each other, or undefined if no match came within 5 s. */
  async function inACall(socket: AnySocket, partner: VideoUser) {
    const partnerSocket = await partner.connect();
    const start = { filters: ANYONE, deviceType: 'desktop' } as const;
    const found = nextEvent(socket as never, 'matchFound').catch(() => undefined);
    await socket.emitWithAck('startMatching', start);
    await partnerSocket.emitWithAck('startMatching', start);
    const match = await found;
    if (match) return { partnerId: match.partnerId, partnerSocket };
    partnerSocket.close();
    return undefined;
  }

  it(
    'answers each event with its answer or an error with a reason, and keeps answering',
    async () => {
      console.log(`Socket fuzz: seed ${SEED}, ${RUNS} runs per event (FUZZ_SEED, FUZZ_SOCKET_RUNS)`);
      const started = Date.now();
      const resolve = (ref: string) => document.components.schemas[ref.replace('#/components/schemas/', '')]!;
      const problems: string[] = [];
      const outcomes = new Map<string, number>();
      const count = (outcome: string) => outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
      const system = await open('/', people[0]!);
      const stillAnswering = async () => {
        const pong = (await system.timeout(3_000).emitWithAck('ping', { sentAt: Date.now() })) as object;
        return 'serverTime' in pong || 'error' in pong;
      };
      let events = 0;
      for (const channel of Object.values(document.channels)) {
        for (const [key, message] of Object.entries(channel.messages)) {
          if (!key.startsWith('fromClient_') || key.endsWith('_ack')) continue;
          events++;
          const [person, partner] = [people[2 * events - 1]!, people[2 * events]!];
          let socket = await open(channel.address, person);
          const call = channel.address === '/video' ? await inACall(socket, partner) : undefined;
          if (channel.address === '/video') count(call ? 'in a call while fuzzed' : 'no call: fuzzed alone');
          const acknowledged = `${key}_ack` in channel.messages;
          const payloads = fc.sample(
            fc.oneof(
              { arbitrary: bodyValue(message.payload ?? {}, resolve), weight: 3 },
              { arbitrary: hostileValue(), weight: 1 },
            ),
            { seed: SEED + events, numRuns: RUNS },
          );
          for (const [i, sampled] of payloads.entries()) {
            // Every other relay to the real partner, the rest to whatever the schema made up.
            const payload =
              call && i % 2 && typeof sampled === 'object' && sampled !== null && 'target' in sampled
                ? { ...sampled, target: call.partnerId }
                : sampled;
            if (!socket.connected) {
              count('reconnected after the server closed the socket');
              socket.close();
              socket = await open(channel.address, person);
            }
            const shown = `${channel.address} ${message.name} ${String(JSON.stringify(payload)).slice(0, 200)}`;
            if (!acknowledged) {
              socket.emit(message.name, payload);
              count('sent without acknowledgement');
            } else {
              try {
                const before = await log.head();
                const answer = (await socket.timeout(3_000).emitWithAck(message.name, payload)) as unknown;
                const text = JSON.stringify(answer) ?? '';
                const error = (answer as { error?: { reason?: unknown } } | null)?.error;
                if (error !== undefined && (await log.head()) !== before)
                  problems.push(`refused, yet appended ${(await log.typesAfter(before)).join(', ')} <- ${shown}`);
                // What an accepted event sets going (a pairing, a call's end) lands before the next is judged.
                if (error === undefined) await log.settled();
                if (error !== undefined && (typeof error.reason !== 'string' || !error.reason.trim()))
                  problems.push(`error without a reason ${text.slice(0, 200)} <- ${shown}`);
                if (LEAK.test(text)) problems.push(`answer shows internals ${text.slice(0, 200)} <- ${shown}`);
                count(error ? `error: ${error.reason as string}` : 'answered');
              } catch {
                // A payload past the socket's buffer limit closes the socket: that is the answer to it.
                if (socket.connected) problems.push(`no acknowledgement within 3 s <- ${shown}`);
                count('closed by the server');
              }
            }
            if (!(await stillAnswering().catch(() => false))) problems.push(`ping unanswered after ${shown}`);
          }
          socket.close();
          call?.partnerSocket.close();
        }
      }
      system.close();
      const { rows } = await sql<{
        message: string;
      }>`select message from app_log where level in ('error', 'fatal')`.execute(test.db);
      for (const row of rows) problems.push(`server error log: ${row.message.slice(0, 300)}`);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const summary = [...outcomes].sort(([, a], [, b]) => b - a).map(([outcome, n]) => `${n} ${outcome}`);
      console.log(`Socket fuzz: ${events} events, ${RUNS * events} emits in ${seconds} s:\n${summary.join('\n')}`);
      expect(problems).toEqual([]);
    },
    3 * 60_000,
  );
});
