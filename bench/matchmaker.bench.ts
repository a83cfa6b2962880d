/**
 * `npm run bench:matchmaker -- --json`: the indexed matchmaker against the naive linear scan, in one run, on the
 * same queue and the same traffic, at 1k, 10k and 100k waiting users. Goal: at 100k waiting, p99 <= 1 ms
 * per decision and at least 100 x the naive throughput. A decision is one arrival: paired at once, or queued (with
 * the holds for shared interests that ended by then released first, as the leader's timers do).
 * Two crowds: without interests, and with 30 % of it choosing 1 to 3 of 200 interests (Zipf), same goals.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Matchmaker, type MatchmakerPort } from '@serendip/backend/matching/domain/matchmaker.js';
import { NaiveMatchmaker, type Waiting } from '@serendip/backend/matching/domain/naive-matchmaker.js';
import { report, summarize, type LatencySummary } from './harness.js';
import { INTEREST_TAGS, Traffic, waitingQueue, WITH_INTERESTS } from './matchmaker-workload.js';

const SIZES = [1_000, 10_000, 100_000];
const DECISIONS = 20_000;
/** The naive scan is linear by design: it stops after this long, or DECISIONS, whichever comes first. */
const NAIVE_BUDGET_MS = 10_000;
const TRAFFIC_SEED = 7;

interface Figures extends LatencySummary {
  perSec: number;
  decisions: number;
  /** Pairs made: at arrivals, and as holds for shared interests ended. */
  paired: number;
  /** Of them, pairs who share an interest. */
  sharedInterests: number;
}

/** Times each arrival alone (the traffic's bookkeeping around it is not timed); returns who was paired, in order. */
function measure(
  matchmaker: MatchmakerPort,
  start: { waiting: Waiting[]; now: number },
  budgetMs: number,
  interests: boolean,
) {
  const traffic = new Traffic(TRAFFIC_SEED, start.waiting.length, start.waiting, start.now, 50, interests);
  const samples: number[] = [];
  const pairs: string[] = [];
  let spentNs = 0n;
  let shared = 0;
  for (let i = 0; i < DECISIONS && Number(spentNs) / 1e6 < budgetMs; i++) {
    const arrival = traffic.next();
    const started = process.hrtime.bigint();
    const released = matchmaker.release(traffic.now);
    const pair = matchmaker.arrive(arrival, traffic.now);
    const ns = process.hrtime.bigint() - started;
    spentNs += ns;
    samples.push(Number(ns) / 1e6);
    for (const p of [...released, ...(pair ? [pair] : [])]) if (p.sharedInterests.length > 0) shared++;
    pairs.push([...released, pair].map((p) => (p ? `${p.waiting.userId}+${p.arrival.userId}` : '')).join(' '));
    traffic.released(matchmaker, released);
    traffic.settle(matchmaker, arrival, pair);
  }
  const figures: Figures = {
    perSec: Math.round(samples.length / (Number(spentNs) / 1e9)),
    ...summarize(samples),
    decisions: samples.length,
    paired: pairs.reduce((n, step) => n + step.split(' ').filter(Boolean).length, 0),
    sharedInterests: shared,
  };
  return { figures, pairs };
}

/** `gc()` without a command-line flag (the npm script runs plain `node`), to weigh what the index holds. */
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapMB(): number {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/**
 * The indexed matchmaker holding the queue (none of its users pairs with another, holds ended by `now` released),
 * and the heap it takes.
 */
function indexedHolding(waiting: readonly Waiting[], now: number): { matchmaker: Matchmaker; indexMB: number } {
  const before = heapMB();
  const matchmaker = new Matchmaker();
  for (const { seeker, arrivedAt } of waiting) {
    if (matchmaker.arrive(seeker, arrivedAt)) throw new Error('the starting queue holds a pair');
  }
  if (matchmaker.release(now).length > 0) throw new Error('the starting queue holds a pair');
  return { matchmaker, indexMB: Math.round((heapMB() - before) * 10) / 10 };
}

const run = (interests: boolean) =>
  SIZES.map((waiting) => {
    const start = waitingQueue(waiting, 42, interests);
    const { matchmaker, indexMB } = indexedHolding(start.waiting, start.now);
    const indexed = measure(matchmaker, start, Infinity, interests);
    const naive = measure(NaiveMatchmaker.holding(start.waiting, start.now), start, NAIVE_BUDGET_MS, interests);
    // The naive run is a prefix of the indexed one's traffic: the same arrivals must have met the same partners.
    const samePairs = naive.pairs.every((pair, i) => pair === indexed.pairs[i]);
    return {
      waiting,
      indexed: indexed.figures,
      naive: naive.figures,
      ratio: Math.round(indexed.figures.perSec / naive.figures.perSec),
      samePairs,
      indexMB,
    };
  });

const results = run(false);
const withInterests = run(true);
/** At 100k waiting: p99 <= 1 ms and at least 100 x the naive throughput, both crowds. */
const metGoal = [results, withInterests].every((rows) =>
  rows.every((r) => r.waiting !== 100_000 || (r.indexed.p99Ms <= 1 && r.ratio >= 100)),
);

if (process.argv.includes('--json')) {
  report({
    results,
    withInterests: { share: WITH_INTERESTS, interests: INTEREST_TAGS.length, perUser: [1, 3], results: withInterests },
    metGoal,
  });
} else {
  const row = (cells: (string | number)[]) => cells.map((c) => String(c).padStart(11)).join('');
  for (const [title, rows] of [
    ['without interests', results],
    [`${WITH_INTERESTS * 100} % with 1-3 of ${INTEREST_TAGS.length} interests`, withInterests],
  ] as const) {
    console.log(title);
    console.log(
      row(['waiting', 'indexed/s', 'p50 ms', 'p99 ms', 'naive/s', 'p50 ms', 'p99 ms', 'ratio', 'same', 'index MB']),
    );
    for (const r of rows) {
      const { indexed: i, naive: n } = r;
      console.log(
        row([
          r.waiting,
          i.perSec,
          i.p50Ms,
          i.p99Ms,
          n.perSec,
          n.p50Ms,
          n.p99Ms,
          r.ratio,
          String(r.samePairs),
          r.indexMB,
        ]),
      );
    }
  }
  console.log(`goal met: ${metGoal}`);
}
if ([...results, ...withInterests].some((r) => !r.samePairs)) process.exitCode = 1;
