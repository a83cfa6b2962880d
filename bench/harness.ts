/**
 * Shared pieces of every benchmark under bench/: latency percentiles, timed loops, and the output contract
 * (`npm run bench:<name> -- --json` prints one JSON object; without --json, a table for a person).
 * Every benchmark measures a naive baseline in the same run, so figures compare like with like.
 */
import { performance } from 'node:perf_hooks';

export interface LatencySummary {
  p50Ms: number;
  p99Ms: number;
}

/** Nearest-rank percentile of an ascending list (p from 0 to 100). */
export function percentile(sortedAscending: ArrayLike<number>, p: number): number {
  if (sortedAscending.length === 0) throw new Error('percentile of no samples');
  if (p < 0 || p > 100) throw new Error(`percentile ${p} is not between 0 and 100`);
  const rank = Math.max(1, Math.ceil((p / 100) * sortedAscending.length));
  return sortedAscending[rank - 1]!;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  return { p50Ms: round(percentile(sorted, 50)), p99Ms: round(percentile(sorted, 99)) };
}

export interface LoopResult extends LatencySummary {
  perSec: number;
  count: number;
}

/** Runs `operation` `count` times in a row, timing each call; `perSec` is over the whole loop. */
export async function timeEach(count: number, operation: (i: number) => unknown): Promise<LoopResult> {
  const samples = new Array<number>(count);
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    await operation(i);
    samples[i] = performance.now() - t;
  }
  const elapsedMs = performance.now() - started;
  return { count, perSec: Math.round((count / elapsedMs) * 1000), ...summarize(samples) };
}

/** Prints the result: JSON when the command line has --json, otherwise indented for reading. */
export function report(result: object, argv: readonly string[] = process.argv): void {
  process.stdout.write(`${JSON.stringify(result, null, argv.includes('--json') ? 0 : 2)}\n`);
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
