import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { LoginAnswer, RefreshAnswer, UserInfo } from '@serendip/proto';
import type { Request, Response } from 'express';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { type Device, IdentityService, PASSWORD_RESET_ANSWER, type SignedIn } from '../accounts/identity.service.js';
import { clearAuthCookies, cookie, setAuthCookies } from './auth-cookies.js';
import { AuthGuard, type AuthenticatedRequest } from './auth.guard.js';
import {
  CompleteSignupDto,
  LoginDto,
  LoginVerifyDto,
  PasswordResetDto,
  ResetPasswordDto,
  SignupDto,
  VerifyEmailDto,
} from './auth.dto.js';

/** The auth routes (issue 4; spec 7 paths kept exactly). */
@Controller('auth')
export class AuthController {
  constructor(
    private readonly identity: IdentityService,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @Post('signup')
  @HttpCode(201)
  async signup(
    @Body() body: SignupDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserInfo> {
    return this.signedIn(
      res,
      await this.identity.signup(body.emailAddress.trim(), body.password, device(req), meta(req)),
    );
  }

  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() body: VerifyEmailDto, @Req() req: Request): Promise<{ message: string }> {
    await this.identity.verifyEmail(body.token, meta(req));
    return { message: 'E-mail address confirmed' };
  }

  @Post('signup/complete')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  completeSignup(@Body() body: CompleteSignupDto, @Req() req: AuthenticatedRequest): Promise<UserInfo> {
    return this.identity.completeSignup(req.auth.userId, body, meta(req, req.auth.userId));
  }

  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<LoginAnswer> {
    const answer = await this.identity.login(body.emailAddress.trim(), body.password, device(req), meta(req));
    return 'twoFactorRequired' in answer ? answer : this.signedIn(res, answer);
  }

  @Post('login/verify')
  @HttpCode(200)
  async verifyLogin(
    @Body() body: LoginVerifyDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<UserInfo> {
    return this.signedIn(res, await this.identity.verifyLoginCode(body.challengeId, body.code, device(req), meta(req)));
  }

  @Get('user-info')
  @UseGuards(AuthGuard)
  userInfo(@Req() req: AuthenticatedRequest, @Res({ passthrough: true }) res: Response): Promise<UserInfo> {
    res.setHeader('Cache-Control', 'no-store');
    return this.identity.userInfo(req.auth.userId, new Date());
  }

  /** spec 7: status 200 is success; the new access token is in the answer and in a cookie. */
  @Post('refresh-token')
  @HttpCode(200)
  async refresh(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<RefreshAnswer> {
    try {
      const tokens = await this.identity.refresh(cookie(req, 'refreshToken'), meta(req));
      setAuthCookies(res, this.config.publicUrl, tokens);
      return { accessToken: tokens.accessToken };
    } catch (error) {
      clearAuthCookies(res);
      throw error;
    }
  }

  /** spec 4: the client clears its state whatever the answer; the server ends the session it can identify. */
  @Post('logout')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  async logout(
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ message: string }> {
    await this.identity.logout(req.auth.userId, req.auth.sessionId, meta(req, req.auth.userId));
    clearAuthCookies(res);
    return { message: 'Logged out' };
  }

  /** 202 whatever the address: no account enumeration (issue 4). */
  @Post('password-reset')
  @HttpCode(202)
  passwordReset(@Body() body: PasswordResetDto): { message: string } {
    this.identity.requestPasswordReset(body.emailAddress.trim(), new Date());
    return { message: PASSWORD_RESET_ANSWER };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body() body: ResetPasswordDto, @Req() req: Request): Promise<{ message: string }> {
    const caller = await this.identity.sessionOf(req);
    await this.identity.resetPassword(body.token, body.newPassword, caller?.sessionId, meta(req));
    return { message: 'Your password was changed; sign in with the new one.' };
  }

  private signedIn(res: Response, signedIn: SignedIn): UserInfo {
    setAuthCookies(res, this.config.publicUrl, signedIn);
    return signedIn.user;
  }
}

export function device(req: Request): Device {
  return { userAgent: req.headers['user-agent'] ?? null, ip: req.ip ?? null };
}

/** A request is one intent: an Idempotency-Key header makes its retry a no-op. */
export function meta(req: Request, actor = 'anonymous'): CommandMetadata {
  const key = req.headers['idempotency-key'];
  const commandId = typeof key === 'string' && /^[A-Za-z0-9-]{8,100}$/.test(key) ? key : randomUUID();
  return { commandId, correlationId: randomUUID(), actor, now: new Date() };
}
