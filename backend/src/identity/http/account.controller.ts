import { Body, Controller, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { EditAccountAnswer } from '@serendip/proto';
import type { Response } from 'express';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { DeleteAccount } from '../commands/delete-account/delete-account.command.js';
import { EditAccount } from '../commands/edit-account/edit-account.command.js';
import { DeleteAccountDto, EditAccountDto } from '../profile/profile.dto.js';
import { AllowedWhileRestricted } from '../public/account-standing.js';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../public/guards.js';
import { clearAuthCookies } from './auth-cookies.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** spec 7: POST /user/edit-account (the user replaces the current one), POST /user/delete-account (then logout). */
@Controller('user')
@UseGuards(AuthGuard)
export class AccountController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post('edit-account')
  @HttpCode(200)
  editAccount(
    @Body() body: EditAccountDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<EditAccountAnswer> {
    return this.commands.execute(new EditAccount(req.auth.userId, req.auth.sessionId, body, meta));
  }

  // Deleting one's account is a right a ban does not take away (privacy policy); a permanent ban's address stays barred.
  @ApiAnswers({ 429: 'Too many wrong current passwords; Retry-After says when.' })
  @Post('delete-account')
  @AllowedWhileRestricted()
  @HttpCode(200)
  async deleteAccount(
    @Body() body: DeleteAccountDto,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new DeleteAccount(req.auth.userId, body.currentPassword, meta));
    clearAuthCookies(res, this.config.publicUrl);
    return { message: 'Account deleted' };
  }
}
