import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { checkContract, SFU_SUBJECTS, type SfuLoad, sfuLoadSchema } from '@serendip/proto';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';

/** A node not heard from for this long is gone (it announces every 5 s). */
const STALE_AFTER_MS = 15_000;

/**
 * The SFU nodes' latest load announcements: for admins and the dashboard, and to know
 * whether any node can relay a call now.
 */
@Injectable()
export class SfuLoads implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SfuLoads.name);
  private readonly latest = new Map<string, { load: SfuLoad; seenAt: number }>();
  private subscription: BusSubscription | undefined;

  constructor(@Inject(EVENT_CORE) private readonly core: EventCore) {}

  // Before any bootstrap hook: an SFU in this process announces itself as it starts, and that must not be missed.
  onModuleInit() {
    this.subscription = this.core.bus.subscribe(SFU_SUBJECTS.load, (message) => {
      // An announcement outside the contract (an SFU of another version) counts as no word from that node.
      const checked = checkContract(sfuLoadSchema, message.data);
      if (!checked.ok) {
        this.logger.warn(`SFU load announcement dropped: ${checked.reason}`);
        return;
      }
      this.latest.set(checked.value.nodeId, { load: checked.value, seenAt: Date.now() });
    });
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }

  /** Whether some node heard from lately has a worker to relay calls with. */
  relayAvailable(now = Date.now()): boolean {
    return this.nodes(now).some((node) => node.disabledReason === null && node.workers.length > 0);
  }

  /** Every node heard from lately, with its workers' rooms, transports, producers, consumers and CPU. */
  nodes(now = Date.now()): SfuLoad[] {
    for (const [nodeId, { seenAt }] of this.latest) if (now - seenAt > STALE_AFTER_MS) this.latest.delete(nodeId);
    return [...this.latest.values()].map((entry) => entry.load);
  }
}
