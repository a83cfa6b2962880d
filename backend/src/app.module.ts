import { type DynamicModule, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { AdminModule } from './admin/admin.module.js';
import { FeedModule } from './feed/feed.module.js';
import { IdentityModule } from './identity/identity.module.js';
import { MatchingModule } from './matching/matching.module.js';
import { ModerationModule } from './moderation/moderation.module.js';
import { NotificationsModule } from './notifications/notifications.module.js';
import { OpsModule } from './ops/ops.module.js';
import { type PlatformDeps, PlatformModule } from './platform/platform.module.js';

/** Composes the process: the platform (made before Nest and handed in), the command bus, and one module a context. */
@Module({})
export class AppModule {
  static register(deps: PlatformDeps): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.register(deps),
        CqrsModule.forRoot(),
        IdentityModule,
        MatchingModule,
        ModerationModule,
        NotificationsModule,
        FeedModule,
        OpsModule,
        AdminModule,
      ],
    };
  }
}
