import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';

/** What the matchmaker holds now: people searching, live calls, and those of them relayed through the SFU. */
export interface LiveMatchingCounts {
  searching: number;
  inCalls: number;
  relayedCalls: number;
}

/** The leader's counts travel here, so every node can answer them (DESIGN.md "Fan-out: NATS"). */
export const LIVE_MATCHING_SUBJECT = 'matching.live';
/** The leader says its counts when they change (looked at every second) and at least this often. */
const ANNOUNCE_EVERY_MS = 5_000;
const LOOK_EVERY_MS = 1_000;
/** Counts not heard again for this long are the word of a leader that is gone. */
const STALE_AFTER_MS = 12_000;

const isCount = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0;

/**
 * Matching's live figures for the dashboard (spec 2 "Admin dashboard": searching, in calls, relayed). Only the
 * matchmaker leader knows them (it holds the queue and the calls in memory; the `matches` read model cannot say which
 * unended rows a lost leader left behind), so the leader announces them on the bus and every node keeps the latest.
 * `leads` says whether this node is that leader, for work that must run on one node only.
 */
@Injectable()
export class LiveMatching implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(LiveMatching.name);
  private source: (() => LiveMatchingCounts) | undefined;
  private heard: { counts: LiveMatchingCounts; at: number } | undefined;
  private announced: { key: string; at: number } | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private subscription: BusSubscription | undefined;

  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  onModuleInit() {
    this.subscription = this.core.bus.subscribe(LIVE_MATCHING_SUBJECT, (message) => {
      const counts = message.data as Partial<LiveMatchingCounts> | null;
      if (!counts || !isCount(counts.searching) || !isCount(counts.inCalls) || !isCount(counts.relayedCalls)) {
        this.logger.warn('live matching counts dropped: not three counts');
        return;
      }
      const { searching, inCalls, relayedCalls } = counts;
      this.heard = { counts: { searching, inCalls, relayedCalls }, at: Date.now() };
    });
  }

  async onApplicationShutdown() {
    this.standDown();
    await this.subscription?.unsubscribe();
  }

  /** True on the node that runs the matchmaker now. */
  get leads(): boolean {
    return this.source !== undefined;
  }

  /** The counts now: the leader's own on the leader, the latest heard elsewhere; undefined if no leader spoke lately. */
  current(now = Date.now()): LiveMatchingCounts | undefined {
    if (this.source) return this.source();
    if (this.heard && now - this.heard.at <= STALE_AFTER_MS) return this.heard.counts;
    return undefined;
  }

  /** The matchmaker calls this when this node starts leading. */
  lead(source: () => LiveMatchingCounts) {
    this.source = source;
    clearInterval(this.timer);
    this.timer = setInterval(() => void this.announce(), LOOK_EVERY_MS);
    this.timer.unref?.();
    void this.announce();
  }

  /** ...and this when it stops. */
  standDown() {
    this.source = undefined;
    this.announced = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async announce() {
    const counts = this.source?.();
    if (!counts) return;
    const key = JSON.stringify(counts);
    const now = Date.now();
    if (this.announced?.key === key && now - this.announced.at < ANNOUNCE_EVERY_MS) return;
    this.announced = { key, at: now };
    await this.core.bus
      .publish({ subject: LIVE_MATCHING_SUBJECT, id: randomUUID(), data: counts })
      .catch((error: unknown) => this.logger.warn(`live matching counts not sent: ${(error as Error).message}`));
  }
}
