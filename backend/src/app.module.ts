import { type DynamicModule, Logger, Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import type { Config } from './config/config.js';
import { CONFIG } from './config/config.token.js';
import { RecordServiceStartHandler } from './ops/commands/record-service-start/record-service-start.command.js';
import { RecordServiceStopHandler } from './ops/commands/record-service-stop/record-service-stop.command.js';
import { IDENTITY_TOKENS, IdentityService, RATE_LIMITS } from './identity/accounts/identity.service.js';
import { AccountSecurityController } from './identity/http/account-security.controller.js';
import { AuthController } from './identity/http/auth.controller.js';
import { AvatarsController } from './identity/avatars/avatars.controller.js';
import { AVATAR_PROVIDERS } from './identity/avatars/avatars.providers.js';
import { AccountService } from './identity/accounts/account.service.js';
import { AccountController } from './identity/http/account.controller.js';
import { AuthGuard } from './identity/http/auth.guard.js';
import { ProfileController } from './identity/http/profile.controller.js';
import { DbIpGeoLocator, GEO_LOCATOR } from './identity/location/geo-ip.js';
import { GeolocationController } from './identity/location/geolocation.controller.js';
import { LocationService } from './identity/location/location.service.js';
import { ProfileService } from './identity/profile/profile.service.js';
import { AccessTokens } from './identity/sessions/access-tokens.js';
import { MatchmakerService } from './matching/coordinator/matchmaker.service.js';
import { VideoGateway } from './matching/gateway/video.gateway.js';
import { FeedbackController } from './matching/http/feedback.controller.js';
import { MediaAdminController } from './matching/http/media-admin.controller.js';
import { EmbeddedSfu } from './matching/media/embedded-sfu.js';
import { SfuClient } from './matching/media/sfu-client.js';
import { SfuLoads } from './matching/media/sfu-loads.js';
import { SnapshotService } from './matching/media/snapshot.service.js';
import { HealthController } from './ops/health/health.controller.js';
import { ServiceLifecycle } from './ops/service-lifecycle.js';
import { SystemGateway } from './ops/system-socket/system.gateway.js';
import { DATABASE, type Db } from './platform/database/database.js';
import { EVENT_CORE, type EventCore } from './platform/event-core/event-core.js';
import { RateLimits } from './platform/http/rate-limits.js';
import { DevOutboxController } from './platform/mail/dev-outbox.controller.js';
import { MAIL_SENDER, type MailSender } from './platform/mail/mail-sender.js';

@Module({})
export class AppModule {
  /** The process's resources are made before Nest (the database may need starting) and handed in here. */
  static register(deps: { config: Config; db: Db; core: EventCore; mail: MailSender }): DynamicModule {
    return {
      module: AppModule,
      global: true,
      imports: [CqrsModule.forRoot()],
      controllers: [
        HealthController,
        DevOutboxController,
        AuthController,
        AccountSecurityController,
        ProfileController,
        AccountController,
        AvatarsController,
        GeolocationController,
        FeedbackController,
        MediaAdminController,
      ],
      providers: [
        { provide: CONFIG, useValue: deps.config },
        { provide: DATABASE, useValue: deps.db },
        { provide: EVENT_CORE, useValue: deps.core },
        { provide: MAIL_SENDER, useValue: deps.mail },
        { provide: IDENTITY_TOKENS, useValue: new AccessTokens(deps.core.keyEncryptionKey) },
        { provide: RATE_LIMITS, useFactory: () => new RateLimits(deps.core.databaseUrl) },
        // The database opens on the first public address and is shared by every app in the process.
        { provide: GEO_LOCATOR, useFactory: () => new DbIpGeoLocator() },
        LocationService,
        IdentityService,
        ProfileService,
        AccountService,
        ...AVATAR_PROVIDERS,
        AuthGuard,
        RecordServiceStartHandler,
        RecordServiceStopHandler,
        ServiceLifecycle,
        SystemGateway,
        VideoGateway,
        MatchmakerService,
        {
          provide: SfuClient,
          useFactory: () => {
            const logger = new Logger(SfuClient.name);
            return new SfuClient(deps.core.bus, undefined, (what) => logger.error(`the SFU failed: ${what}`));
          },
        },
        EmbeddedSfu,
        SfuLoads,
        SnapshotService,
      ],
      exports: [CONFIG, DATABASE, EVENT_CORE, MAIL_SENDER],
    };
  }
}
