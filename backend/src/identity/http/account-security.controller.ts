import { Body, Controller, Get, HttpCode, Post, Req, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { LoginSession, UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { EndOtherSessions } from '../commands/end-other-sessions/end-other-sessions.command.js';
import { EndSession } from '../commands/end-session/end-session.command.js';
import { SetHideIp } from '../commands/set-hide-ip/set-hide-ip.command.js';
import { SetTwoFactor } from '../commands/set-two-factor/set-two-factor.command.js';
import { AllowedWhileRestricted } from '../public/account-standing.js';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../public/guards.js';
import { ListSessions } from '../queries/sessions/list-sessions.query.js';
import { DeleteSessionDto, DisableTwoFactorDto, PrivacySettingsDto } from './auth.dto.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** Sessions and two-factor (spec 7: GET /sessions, POST /sessions/delete, POST /user/enable|disable-twofac). */
@Controller()
@UseGuards(AuthGuard)
export class AccountSecurityController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Get('sessions')
  @AllowedWhileRestricted()
  sessions(@Req() req: AuthenticatedRequest): Promise<LoginSession[]> {
    return this.queries.execute(new ListSessions(req.auth.userId, req.auth.sessionId));
  }

  /** Ends one of the caller's sessions and answers the refreshed list (spec 7: "list refreshed"). */
  @Post('sessions/delete')
  @AllowedWhileRestricted()
  @HttpCode(200)
  async deleteSession(
    @Body() body: DeleteSessionDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<LoginSession[]> {
    await this.commands.execute(new EndSession(req.auth.userId, body.sessionId, meta));
    return this.sessions(req);
  }

  /** "End all other sessions" of the Security tab: the caller's own session stays. */
  @Post('sessions/delete-others')
  @AllowedWhileRestricted()
  @HttpCode(200)
  async deleteOtherSessions(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<LoginSession[]> {
    await this.commands.execute(new EndOtherSessions(req.auth.userId, req.auth.sessionId, meta));
    return this.sessions(req);
  }

  @Post('user/enable-twofac')
  @HttpCode(200)
  enableTwoFactor(@Req() req: AuthenticatedRequest, @CommandMeta() meta: CommandMetadata): Promise<UserInfo> {
    return this.commands.execute(new SetTwoFactor(req.auth.userId, true, meta));
  }

  @ApiAnswers({ 429: 'Too many wrong current passwords; Retry-After says when.' })
  @Post('user/disable-twofac')
  @HttpCode(200)
  disableTwoFactor(
    @Body() body: DisableTwoFactorDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    return this.commands.execute(new SetTwoFactor(req.auth.userId, false, meta, body.currentPassword));
  }

  /** "Hide my IP address": relays the caller's next calls through the SFU. */
  @Post('user/privacy')
  @HttpCode(200)
  privacy(
    @Body() body: PrivacySettingsDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    return this.commands.execute(new SetHideIp(req.auth.userId, body.hideIp, meta));
  }
}
