import { randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { LiveMatching } from '../../matching/public/index.js';
import { Realtime } from '../../platform/realtime/realtime.js';
import { Overview } from '../queries/overview/overview.js';

/** Counters are looked at this often: the pushes are coalesced to one a second at most. */
const LOOK_EVERY_MS = 1_000;

/**
 * Pushes the overview's counters to staff (`dashboardCounters`, role 'staff': admins and moderators only) when they
 * change. Counted on one node only, the matchmaker leader's: it alone knows who is searching and in a call without
 * asking anyone, a handover moves the pushes with it, and staff get one push per change however many nodes run.
 */
@Injectable()
export class DashboardCountersPusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(DashboardCountersPusher.name);
  private timer: ReturnType<typeof setInterval> | undefined;
  private last: string | undefined;
  private busy = false;

  constructor(
    private readonly live: LiveMatching,
    private readonly overview: Overview,
    private readonly realtime: Realtime,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => void this.look(), LOOK_EVERY_MS);
    this.timer.unref?.();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  private async look() {
    if (!this.live.leads) {
      // When this node leads again, its first count is pushed whatever was pushed before.
      this.last = undefined;
      return;
    }
    if (this.busy) return;
    this.busy = true;
    try {
      const now = new Date();
      const counters = await this.overview.counters(now);
      const key = JSON.stringify(counters);
      if (key === this.last) return;
      await this.realtime.toRole('staff', 'dashboardCounters', { counters, at: now.toISOString() }, randomUUID());
      this.last = key;
    } catch (error) {
      this.logger.warn(`dashboard counters not pushed: ${(error as Error).message}`);
    } finally {
      this.busy = false;
    }
  }
}
