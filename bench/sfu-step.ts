/**
 * One step of the SFU ramp: let the calls settle, then count one window of steady traffic: loss and
 * forwarding latency per packet, the worker's CPU (share of one core), and whether this process kept its send rate.
 */
import { cpus } from 'node:os';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { coresBusy, readCpuTimes } from './machine-cpu.js';
import { RelayWindow, type WindowFigures } from './relay-stats.js';
import { PHASES, TICK_MS, type RtpGenerator } from './rtp-traffic.js';
import { dropsBetween, readUdpDrops } from './udp-drops.js';

export const WARM_UP_MS = 2_000;
export const WINDOW_MS = 5_000;
/** Packets sent at the window's end are still counted if they arrive within this. */
const DRAIN_MS = 300;

export interface StepFigures extends WindowFigures {
  calls: number;
  consumers: number;
  /** Packets per second this process sent, and the share of what was due. */
  sentPerSec: number;
  sendRatio: number;
  /** Shares of one core over the window; null when no worker is measured (the baseline). */
  workerCpu: number | null;
  benchCpu: number;
  /** Share of the window the generator spent in its send ticks. */
  generatorBusy: number;
  /** How late this process's event loop ran (p99): sends go out late and arrivals are read late by as much. */
  benchLoopDelayP99Ms: number;
  /** Cores the whole machine kept busy (worker, bench and anything else running), of all it has. */
  machineCoresBusy: number | null;
  /** Of those, the cores neither the worker nor this process used: other work on a shared machine. */
  otherCores: number | null;
  /** Datagrams the kernel dropped at full receive buffers: the worker's sockets, and this process's. */
  droppedAtWorker: number;
  droppedAtBench: number;
}

export type Limit = 'generator' | 'worker-cpu' | 'loss';

export const MAX_WORKER_CPU = 0.9;
export const MAX_LOSS_PCT = 1;
/** Below this share of its due packets, the generator, not the relay, is what the step measured. */
export const MIN_SEND_RATIO = 0.98;
/** An event loop late by a whole packet period: the latency measured is this process's own. */
export const MAX_BENCH_LOOP_DELAY_MS = TICK_MS * PHASES;

export interface StepSubject {
  calls: number;
  consumers: number;
  workerPorts: number[];
  benchReceivePorts: number[];
  /** The worker's user + system CPU so far, in ms. */
  workerCpuMs?: () => Promise<number>;
}

export async function measureStep(generator: RtpGenerator, subject: StepSubject): Promise<StepFigures> {
  await sleep(WARM_UP_MS);
  const window = new RelayWindow(generator.streams);
  generator.window = window;
  const dropsBefore = readUdpDrops();
  const workerBefore = await subject.workerCpuMs?.();
  const loopDelay = monitorEventLoopDelay({ resolution: TICK_MS });
  loopDelay.enable();
  const benchBefore = process.cpuUsage();
  const machineBefore = readCpuTimes();
  const busyBefore = generator.busyMs;
  const startedAt = performance.now();
  const fromSlot = generator.slot;
  window.open(fromSlot);
  await sleep(WINDOW_MS);
  const toSlot = generator.slot;
  window.close(toSlot);
  const wallMs = performance.now() - startedAt;
  const workerAfter = await subject.workerCpuMs?.();
  const bench = process.cpuUsage(benchBefore);
  const machine = coresBusy(machineBefore, readCpuTimes(), cpus().length);
  const busyMs = generator.busyMs - busyBefore;
  loopDelay.disable();
  await sleep(DRAIN_MS);
  const dropsAfter = readUdpDrops();
  generator.window = undefined;
  const figures = window.figures();
  const share = (ms: number) => round2(ms / wallMs);
  const workerCpu = workerBefore === undefined || workerAfter === undefined ? null : share(workerAfter - workerBefore);
  const benchCpu = share((bench.user + bench.system) / 1000);
  return {
    calls: subject.calls,
    consumers: subject.consumers,
    sentPerSec: Math.round((figures.sent / wallMs) * 1000),
    // Due by the clock, not by the slots sent: a generator still behind at the window's end counts as behind.
    sendRatio: round2(figures.sent / Math.max(1, (generator.streams * wallMs) / (TICK_MS * PHASES))),
    workerCpu,
    benchCpu,
    generatorBusy: share(busyMs),
    benchLoopDelayP99Ms: round2(loopDelay.percentile(99) / 1e6),
    machineCoresBusy: machine,
    otherCores: machine === null ? null : round2(Math.max(0, machine - (workerCpu ?? 0) - benchCpu)),
    ...figures,
    droppedAtWorker: dropsBetween(dropsBefore, dropsAfter, subject.workerPorts),
    droppedAtBench: dropsBetween(dropsBefore, dropsAfter, subject.benchReceivePorts),
  };
}

/**
 * What stopped the ramp at this step, if anything. A generator that fell behind (too few packets, or sent late), or
 * whose own sockets dropped most of the lost packets, measured itself rather than the relay; that is named first.
 */
export function limitOf(step: StepFigures): Limit | undefined {
  const lost = step.sent - step.received;
  if (step.sendRatio < MIN_SEND_RATIO || step.benchLoopDelayP99Ms > MAX_BENCH_LOOP_DELAY_MS) return 'generator';
  if (step.workerCpu !== null && step.workerCpu >= MAX_WORKER_CPU) return 'worker-cpu';
  if (step.lossPct >= MAX_LOSS_PCT) return step.droppedAtBench * 2 >= lost ? 'generator' : 'loss';
  return undefined;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
