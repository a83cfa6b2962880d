import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { EditAccountAnswer } from '@serendip/proto';
import type { Response } from 'express';
import { AccountService } from '../accounts/account.service.js';
import { DeleteAccountDto, EditAccountDto } from '../profile/profile.dto.js';
import { clearAuthCookies } from './auth-cookies.js';
import { meta } from './auth.controller.js';
import { AuthGuard, type AuthenticatedRequest } from './auth.guard.js';

/** spec 7: POST /user/edit-account (the user replaces the current one), POST /user/delete-account (then logout). */
@Controller('user')
@UseGuards(AuthGuard)
export class AccountController {
  constructor(private readonly accounts: AccountService) {}

  @Post('edit-account')
  @HttpCode(200)
  editAccount(@Body() body: EditAccountDto, @Req() req: AuthenticatedRequest): Promise<EditAccountAnswer> {
    return this.accounts.editAccount(req.auth.userId, req.auth.sessionId, body, meta(req, req.auth.userId));
  }

  @Post('delete-account')
  @HttpCode(200)
  async deleteAccount(
    @Body() body: DeleteAccountDto,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ message: string }> {
    await this.accounts.deleteAccount(req.auth.userId, body.currentPassword, meta(req, req.auth.userId));
    clearAuthCookies(res);
    return { message: 'Account deleted' };
  }
}
