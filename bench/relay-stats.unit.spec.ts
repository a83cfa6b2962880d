import { describe, expect, it } from 'vitest';
import { coresBusy, parseProcStat } from './machine-cpu.js';
import { lossPct, RelayWindow } from './relay-stats.js';
import { MIN_SEND_RATIO, limitOf, type StepFigures } from './sfu-step.js';
import { dropsBetween, parseUdpDrops } from './udp-drops.js';

const probe = (stream: number, slot: number, sentAtMs: number) => ({ stream, slot, sentAtMs });

describe('relay window', () => {
  it('counts only packets sent in its slots, whenever they arrive', () => {
    const window = new RelayWindow(2);
    window.sent(0, 9); // before the window opened
    window.open(10);
    for (let slot = 10; slot < 14; slot++) window.sent(slot % 2, slot);
    window.close(14);
    window.sent(0, 14);
    window.received(probe(0, 9, 0), 5); // sent before the window
    window.received(probe(0, 10, 100), 101);
    window.received(probe(1, 11, 100), 103);
    window.received(probe(0, 12, 100), 102);
    window.received(probe(0, 14, 100), 100.5); // sent after the window
    expect(window.figures()).toMatchObject({
      sent: 4,
      received: 3,
      lossPct: 25,
      worstStreamLossPct: 50,
      silentStreams: 0,
      latencyP50Ms: 2,
      latencyP99Ms: 3,
      latencyMaxMs: 3,
    });
  });

  it('shows a stream that never arrived', () => {
    const window = new RelayWindow(2);
    window.open(0);
    window.sent(0, 0);
    window.sent(1, 0);
    window.received(probe(0, 0, 0), 1);
    expect(window.figures()).toMatchObject({ lossPct: 50, worstStreamLossPct: 100, silentStreams: 1 });
  });

  it('ignores duplicates beyond what was sent and streams it does not know', () => {
    const window = new RelayWindow(1);
    window.open(0);
    window.sent(0, 0);
    window.received(probe(0, 0, 0), 1);
    window.received(probe(0, 0, 0), 1);
    window.received(probe(5, 0, 0), 1);
    expect(window.figures()).toMatchObject({ sent: 1, received: 1, lossPct: 0 });
  });

  it('reports loss in percent, none for nothing sent', () => {
    expect(lossPct(1_000, 990)).toBe(1);
    expect(lossPct(3, 2)).toBe(33.333);
    expect(lossPct(0, 0)).toBe(0);
  });
});

describe('step limits', () => {
  const fine: StepFigures = {
    calls: 100,
    consumers: 400,
    sentPerSec: 20_000,
    sendRatio: 1,
    workerCpu: 0.5,
    benchCpu: 0.5,
    generatorBusy: 0.2,
    benchLoopDelayP99Ms: 6,
    machineCoresBusy: 1.2,
    otherCores: 0.2,
    sent: 100_000,
    received: 100_000,
    lossPct: 0,
    worstStreamLossPct: 0,
    silentStreams: 0,
    latencyP50Ms: 1,
    latencyP99Ms: 5,
    latencyMaxMs: 9,
    droppedAtWorker: 0,
    droppedAtBench: 0,
  };

  it('passes a step under every limit', () => expect(limitOf(fine)).toBeUndefined());

  it('names the generator first when it fell behind', () => {
    expect(limitOf({ ...fine, sendRatio: MIN_SEND_RATIO - 0.01, workerCpu: 0.95 })).toBe('generator');
  });

  it('names the generator when its event loop ran a packet period late', () => {
    expect(limitOf({ ...fine, benchLoopDelayP99Ms: 21 })).toBe('generator');
  });

  it('stops at 0.9 of a core', () => expect(limitOf({ ...fine, workerCpu: 0.9 })).toBe('worker-cpu'));

  it('blames loss on the relay unless the bench sockets dropped most of it', () => {
    const lossy = { ...fine, received: 98_000, lossPct: 2 };
    expect(limitOf({ ...lossy, droppedAtWorker: 1_500 })).toBe('loss');
    expect(limitOf({ ...lossy, droppedAtBench: 1_500 })).toBe('generator');
  });
});

describe('kernel counters', () => {
  it('reads drops per local port from /proc/net/udp', () => {
    const text = [
      '   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops',
      '  101: 0100007F:2710 0100007F:C350 01 00000000:00000000 00:00000000 00000000     0        0 1 2 0000000000000000 17',
      '  102: 0100007F:C350 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 2 2 0000000000000000 0',
    ].join('\n');
    const drops = parseUdpDrops(text);
    expect(drops.get(10_000)).toBe(17);
    expect(drops.get(50_000)).toBe(0);
    expect(dropsBetween(new Map([[10_000, 7]]), drops, [10_000, 50_000, 1])).toBe(10);
  });

  it('reads busy cores from /proc/stat', () => {
    const before = parseProcStat('cpu  100 0 100 700 100 0 0 0 0 0\ncpu0 1 2 3 4\n');
    const after = parseProcStat('cpu  250 0 150 800 100 0 0 0 0 0\n');
    expect(before).toEqual({ busy: 200, total: 1_000 });
    expect(coresBusy(before, after, 2)).toBe(1.33);
    expect(coresBusy(after, before, 2)).toBeNull();
  });
});
