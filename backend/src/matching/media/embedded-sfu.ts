import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { SfuRpcPort } from '@serendip/proto';
import type { RunningSfu } from '@serendip/sfu';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { createLogger } from '../../platform/logging/logger.js';
import type { MessageBus } from '../../platform/messaging/message-bus.js';

/**
 * The SFU inside this process (DESIGN.md: `npm start` runs it in-process, on the in-process bus; a node may also
 * run it beside its backend on NATS). Production runs `sfu` nodes instead (SFU_EMBEDDED=false). Without a
 * mediasoup worker it still starts, says once that relay and snapshots are off, and calls stay peer to peer.
 */
@Injectable()
export class EmbeddedSfu implements OnApplicationBootstrap, OnApplicationShutdown {
  private sfu: RunningSfu | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(EVENT_CORE) private readonly core: EventCore,
  ) {}

  async onApplicationBootstrap() {
    const { media } = this.config;
    if (!media.embeddedSfu || media.mode === 'p2p') return;
    // Loaded only here: a backend that never relays never loads mediasoup.
    const { startSfu } = await import('@serendip/sfu');
    this.sfu = await startSfu({
      healthPort: 0,
      host: '127.0.0.1',
      logger: createLogger(this.config.logLevel).child({ component: 'sfu' }),
      rpc: busRpcPort(this.core.bus),
      listenIp: media.listenIp,
      announcedIp: media.announcedIp,
      rtcMinPort: media.rtcMinPort,
      rtcMaxPort: media.rtcMaxPort,
    });
  }

  /** The SFU this process runs, if any (diagnostics and tests). */
  get running(): RunningSfu | undefined {
    return this.sfu;
  }

  async onApplicationShutdown() {
    await this.sfu?.stop();
    this.sfu = undefined;
  }
}

/** The SFU's RPC over this process's bus (in-process under `npm start`, NATS otherwise). */
export function busRpcPort(bus: MessageBus): SfuRpcPort {
  return {
    serve(subject, handler, options) {
      const subscription = bus.serve(subject, handler, options);
      return { close: () => subscription.unsubscribe() };
    },
    publish: (subject, data) => bus.publish({ subject, id: randomUUID(), data }),
  };
}
