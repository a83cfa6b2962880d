import { type DynamicModule, Module } from '@nestjs/common';
import type { Config } from '../config/config.js';
import { CONFIG } from '../config/config.token.js';
import { DATABASE, type Db } from './database/database.js';
import { EVENT_CORE, type EventCore } from './event-core/event-core.js';
import { RATE_LIMITS, RateLimits } from './http/rate-limits.js';
import { DevOutboxController } from './mail/dev-outbox.controller.js';
import { MAIL_SENDER, type MailSender } from './mail/mail-sender.js';
import { Presence } from './realtime/presence.js';
import { Realtime } from './realtime/realtime.js';

export interface PlatformDeps {
  config: Config;
  db: Db;
  core: EventCore;
  mail: MailSender;
}

/** What every context uses (DESIGN.md "Shape"): made before Nest (the database may need starting), handed in. */
@Module({})
export class PlatformModule {
  static register(deps: PlatformDeps): DynamicModule {
    const providers = [
      { provide: CONFIG, useValue: deps.config },
      { provide: DATABASE, useValue: deps.db },
      { provide: EVENT_CORE, useValue: deps.core },
      { provide: MAIL_SENDER, useValue: deps.mail },
      { provide: RATE_LIMITS, useFactory: () => new RateLimits(deps.core.databaseUrl) },
      Realtime,
      Presence,
    ];
    return {
      module: PlatformModule,
      global: true,
      controllers: [DevOutboxController],
      providers,
      exports: [CONFIG, DATABASE, EVENT_CORE, MAIL_SENDER, RATE_LIMITS, Realtime, Presence],
    };
  }
}
