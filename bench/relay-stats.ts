/**
 * Loss and forwarding latency of one measurement window. A packet belongs to the window when the slot it
 * was sent in does: sender and receiver count the same packets, whatever arrives late or never.
 */
import { percentile } from './harness.js';
import { type Probe } from './rtp.js';

export interface WindowFigures {
  sent: number;
  received: number;
  lossPct: number;
  /** The worst single stream (consumer): a stream that never started shows here, not hidden in the average. */
  worstStreamLossPct: number;
  silentStreams: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
}

export class RelayWindow {
  private readonly sentPerStream: Uint32Array;
  private readonly receivedPerStream: Uint32Array;
  private readonly latenciesMs: number[] = [];
  private fromSlot = Infinity;
  private toSlot = Infinity;

  constructor(readonly streams: number) {
    this.sentPerStream = new Uint32Array(streams);
    this.receivedPerStream = new Uint32Array(streams);
  }

  open(slot: number): void {
    this.fromSlot = slot;
  }

  /** Slots from here on are outside; packets of earlier slots still in flight keep counting. */
  close(slot: number): void {
    this.toSlot = slot;
  }

  private inside(slot: number): boolean {
    return slot >= this.fromSlot && slot < this.toSlot;
  }

  sent(stream: number, slot: number): void {
    if (this.inside(slot) && stream < this.streams) this.sentPerStream[stream]!++;
  }

  received(probe: Probe, receivedAtMs: number): void {
    if (!this.inside(probe.slot) || probe.stream >= this.streams) return;
    this.receivedPerStream[probe.stream]!++;
    this.latenciesMs.push(receivedAtMs - probe.sentAtMs);
  }

  figures(): WindowFigures {
    let sent = 0;
    let received = 0;
    let worst = 0;
    let silent = 0;
    for (let i = 0; i < this.streams; i++) {
      const s = this.sentPerStream[i]!;
      const r = Math.min(this.receivedPerStream[i]!, s);
      sent += s;
      received += r;
      if (s > 0) worst = Math.max(worst, lossPct(s, r));
      if (s > 0 && r === 0) silent++;
    }
    const sorted = Float64Array.from(this.latenciesMs).sort();
    const at = (p: number) => (sorted.length === 0 ? NaN : round3(percentile(sorted, p)));
    return {
      sent,
      received,
      lossPct: lossPct(sent, received),
      worstStreamLossPct: worst,
      silentStreams: silent,
      latencyP50Ms: at(50),
      latencyP99Ms: at(99),
      latencyMaxMs: at(100),
    };
  }
}

export function lossPct(sent: number, received: number): number {
  if (sent === 0) return 0;
  return round3((100 * (sent - received)) / sent);
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
