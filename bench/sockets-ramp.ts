/**
 * The pure parts of `bench:sockets`: the send schedule the clients keep, which steps of the ramp meet the goal, and
 * how the product's throughput compares with bare Socket.IO's.
 */

/** The goal for one backend process. */
export const GOAL = { sockets: 20_000, relayP99Ms: 50, ratioToBare: 0.7 } as const;

/** A step fails when more than this share of the window's messages never arrived (within the grace period). */
export const MAX_LOSS = 0.001;

/** The ramp's default steps: 2,500 apart past 5,000, so the reported count is close to the real limit. */
export const STEPS = [2_000, 5_000, 7_500, 10_000, 12_500, 15_000, 17_500, 20_000] as const;

/** The ramp's socket counts up to `max`: the steps below it, then `max` itself (rounded down to pairs). */
export function rampCounts(max: number, steps: readonly number[] = STEPS): number[] {
  const top = Math.floor(max / 2) * 2;
  if (top < 2) throw new Error(`at least one pair of sockets is needed, not ${max}`);
  return [...steps.filter((s) => s < top), top];
}

/**
 * Every socket sends once a period, the sends spread evenly: send k (counting over all sockets, k = 0, 1, ...) is
 * socket k mod n's, due `k x period / n` ms after the start. So the whole crowd sends n / period messages a ms, never
 * in bursts, and each socket once a period.
 */
export function dueAt(k: number, sockets: number, periodMs: number): number {
  return (k * periodMs) / sockets;
}

/** How many sends are due by `elapsedMs` (sends 0 to the answer - 1). */
export function dueBy(elapsedMs: number, sockets: number, periodMs: number): number {
  if (elapsedMs < 0) return 0;
  return Math.floor((elapsedMs * sockets) / periodMs) + 1;
}

/** The sends whose due time falls in [fromMs, toMs): the measured window, `from` inclusive, `to` exclusive. */
export function windowSends(fromMs: number, toMs: number, sockets: number, periodMs: number) {
  const slot = (ms: number) => Math.max(0, Math.ceil((ms * sockets) / periodMs));
  return { first: slot(fromMs), end: slot(toMs) };
}

/** The id a chat line carries: its send number and send time, read back by the receiver. */
export function lineId(k: number, sentAtMs: number): string {
  return `${k}-${sentAtMs.toFixed(2)}`;
}

export function parseLineId(id: unknown): { k: number; sentAtMs: number } | undefined {
  if (typeof id !== 'string') return undefined;
  const dash = id.indexOf('-');
  const k = Number(id.slice(0, dash));
  const sentAtMs = Number(id.slice(dash + 1));
  return dash > 0 && Number.isInteger(k) && Number.isFinite(sentAtMs) ? { k, sentAtMs } : undefined;
}

export interface StepOutcome {
  sockets: number;
  /** Sockets open and paired (both must equal `sockets`). */
  connected: number;
  paired: number;
  sent: number;
  delivered: number;
  relayP99Ms: number;
}

/** Why a step misses the goal, or undefined when it meets it. */
export function stepFailure(step: StepOutcome): 'connect' | 'loss' | 'p99' | undefined {
  if (step.connected < step.sockets || step.paired < step.sockets) return 'connect';
  if (step.sent === 0 || step.sent - step.delivered > step.sent * MAX_LOSS) return 'loss';
  if (!(step.relayP99Ms <= GOAL.relayP99Ms)) return 'p99';
  return undefined;
}

/**
 * Throughput against bare Socket.IO when both keep the same fixed send schedule (so both deliver the same messages a
 * second while neither is saturated): the messages one core of the backend process relays per second of its CPU,
 * product over bare. 1 means the product's relay costs what bare Socket.IO's does; 0.5, twice as much (one core would
 * carry half bare's messages a second).
 */
export function capacityRatio(
  product: { delivered: number; cpuSeconds: number },
  bare: { delivered: number; cpuSeconds: number },
): number | null {
  if (product.cpuSeconds <= 0 || bare.cpuSeconds <= 0 || bare.delivered === 0) return null;
  return product.delivered / product.cpuSeconds / (bare.delivered / bare.cpuSeconds);
}
