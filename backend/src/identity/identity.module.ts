import { Module } from '@nestjs/common';
import type { Config } from '../config/config.js';
import { CONFIG } from '../config/config.token.js';
import { EVENT_CORE, type EventCore } from '../platform/event-core/event-core.js';
import { Accounts } from './accounts/accounts.js';
import { AvatarsController } from './avatars/avatars.controller.js';
import { AVATAR_PROVIDERS } from './avatars/avatars.providers.js';
import { IDENTITY_COMMAND_HANDLERS } from './commands/index.js';
import { AccountSecurityController } from './http/account-security.controller.js';
import { AccountController } from './http/account.controller.js';
import { AuthController } from './http/auth.controller.js';
import { ProfileController } from './http/profile.controller.js';
import { StaffRolesController } from './http/staff-roles.controller.js';
import { EndSessionSockets } from './integration/end-session-sockets.js';
import { RefreshSocketAccess } from './integration/refresh-socket-access.js';
import { DbIpGeoLocator, GEO_LOCATOR } from './location/geo-ip.js';
import { GeolocationController } from './location/geolocation.controller.js';
import { LocationService } from './location/location.service.js';
import { IdentityMails } from './mail/identity-mails.js';
import { CurrentPassword } from './passwords/current-password.js';
import { AdminGuard, AuthGuard, StaffGuard } from './public/guards.js';
import { ACCESS_TOKENS, SessionResolver } from './public/session-resolver.js';
import { UserDirectory } from './public/user-directory.js';
import { StaffUserDirectory } from './public/staff-user-directory.js';
import { ListSessionsHandler } from './queries/sessions/list-sessions.query.js';
import { GetUserInfoHandler } from './queries/user-info/get-user-info.query.js';
import { AccessTokens } from './sessions/access-tokens.js';
import { AddressClaims } from './accounts/address-claims.js';
import { BarredAddresses } from './accounts/barred-addresses.js';
import { KnownDevices } from './sessions/known-devices.js';
import { SignIns } from './sessions/sign-ins.js';

/** Identity (DESIGN.md "Conventions"): accounts, profiles, sessions. Exports only its public surface. */
@Module({
  controllers: [
    AuthController,
    AccountSecurityController,
    ProfileController,
    AccountController,
    AvatarsController,
    GeolocationController,
    StaffRolesController,
  ],
  providers: [
    {
      provide: ACCESS_TOKENS,
      useFactory: (config: Config, core: EventCore) =>
        config.jwtSecrets ? new AccessTokens(config.jwtSecrets) : AccessTokens.forDevelopment(core.keyEncryptionKey),
      inject: [CONFIG, EVENT_CORE],
    },
    // The database opens on the first public address and is shared by every app in the process.
    { provide: GEO_LOCATOR, useFactory: () => new DbIpGeoLocator() },
    LocationService,
    Accounts,
    IdentityMails,
    SignIns,
    KnownDevices,
    AddressClaims,
    BarredAddresses,
    CurrentPassword,
    ...IDENTITY_COMMAND_HANDLERS,
    GetUserInfoHandler,
    ListSessionsHandler,
    ...AVATAR_PROVIDERS,
    SessionResolver,
    AuthGuard,
    AdminGuard,
    StaffGuard,
    UserDirectory,
    StaffUserDirectory,
    EndSessionSockets,
    RefreshSocketAccess,
  ],
  exports: [SessionResolver, AuthGuard, AdminGuard, StaffGuard, UserDirectory, StaffUserDirectory, BarredAddresses],
})
export class IdentityModule {}
