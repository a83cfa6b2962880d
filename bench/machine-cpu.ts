/**
 * How busy the whole machine was: the benchmark shares 2 cores with whatever else runs, so each step
 * reports the cores in use by everything, next to the worker's and its own share.
 */
import { readFileSync } from 'node:fs';

export interface CpuTimes {
  busy: number;
  total: number;
}

/** The aggregate `cpu` line of /proc/stat, in clock ticks: busy is everything but idle and iowait. */
export function parseProcStat(procStat: string): CpuTimes | undefined {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 5 || ticks.some((t) => !Number.isFinite(t))) return undefined;
  const total = ticks.reduce((a, b) => a + b, 0);
  return { busy: total - ticks[3]! - ticks[4]!, total };
}

export function readCpuTimes(): CpuTimes | undefined {
  try {
    return parseProcStat(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined; // not Linux: the machine's load is left out
  }
}

/** Cores kept busy between two readings (0 to the machine's core count), or null when unknown. */
export function coresBusy(before: CpuTimes | undefined, after: CpuTimes | undefined, cores: number): number | null {
  if (!before || !after || after.total <= before.total) return null;
  return Math.round(((after.busy - before.busy) / (after.total - before.total)) * cores * 100) / 100;
}
