import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import type { LoginSession, UserInfo } from '@serendip/proto';
import { IdentityService } from '../accounts/identity.service.js';
import { meta } from './auth.controller.js';
import { DeleteSessionDto, PrivacySettingsDto } from './auth.dto.js';
import { AuthGuard, type AuthenticatedRequest } from './auth.guard.js';

/** Sessions and two-factor (spec 7: GET /sessions, POST /sessions/delete, POST /user/enable|disable-twofac). */
@Controller()
@UseGuards(AuthGuard)
export class AccountSecurityController {
  constructor(private readonly identity: IdentityService) {}

  @Get('sessions')
  sessions(@Req() req: AuthenticatedRequest): Promise<LoginSession[]> {
    return this.identity.listSessions(req.auth.userId, req.auth.sessionId, new Date());
  }

  /** Ends one of the caller's sessions and answers the refreshed list (spec 7: "list refreshed"). */
  @Post('sessions/delete')
  @HttpCode(200)
  async deleteSession(@Body() body: DeleteSessionDto, @Req() req: AuthenticatedRequest): Promise<LoginSession[]> {
    await this.identity.endSession(req.auth.userId, body.sessionId, meta(req, req.auth.userId));
    return this.identity.listSessions(req.auth.userId, req.auth.sessionId, new Date());
  }

  /** "End all other sessions" of the Security tab (issue 6): the caller's own session stays. */
  @Post('sessions/delete-others')
  @HttpCode(200)
  async deleteOtherSessions(@Req() req: AuthenticatedRequest): Promise<LoginSession[]> {
    await this.identity.endOtherSessions(req.auth.userId, req.auth.sessionId, meta(req, req.auth.userId));
    return this.identity.listSessions(req.auth.userId, req.auth.sessionId, new Date());
  }

  @Post('user/enable-twofac')
  @HttpCode(200)
  enableTwoFactor(@Req() req: AuthenticatedRequest): Promise<UserInfo> {
    return this.identity.setTwoFactor(req.auth.userId, true, meta(req, req.auth.userId));
  }

  /** issue 8 "hide my IP": relays the caller's next calls through the SFU. */
  @Post('user/privacy')
  @HttpCode(200)
  privacy(@Body() body: PrivacySettingsDto, @Req() req: AuthenticatedRequest): Promise<UserInfo> {
    return this.identity.setHideIp(req.auth.userId, body.hideIp, meta(req, req.auth.userId));
  }

  @Post('user/disable-twofac')
  @HttpCode(200)
  disableTwoFactor(@Req() req: AuthenticatedRequest): Promise<UserInfo> {
    return this.identity.setTwoFactor(req.auth.userId, false, meta(req, req.auth.userId));
  }
}
