import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { LoginAnswer, RefreshAnswer, UserInfo } from '@serendip/proto';
import type { Request, Response } from 'express';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { CompleteSignup } from '../commands/complete-signup/complete-signup.command.js';
import { LogIn } from '../commands/log-in/log-in.command.js';
import { LogOut } from '../commands/log-out/log-out.command.js';
import { RefreshSession } from '../commands/refresh-session/refresh-session.command.js';
import {
  PASSWORD_RESET_ANSWER,
  RequestPasswordReset,
} from '../commands/request-password-reset/request-password-reset.command.js';
import { ResendVerification } from '../commands/resend-verification/resend-verification.command.js';
import { ResetPassword } from '../commands/reset-password/reset-password.command.js';
import { SignUp } from '../commands/sign-up/sign-up.command.js';
import { VerifyEmail } from '../commands/verify-email/verify-email.command.js';
import { VerifyLoginCode } from '../commands/verify-login-code/verify-login-code.command.js';
import { AllowedWhileRestricted } from '../public/account-standing.js';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../public/guards.js';
import { SessionResolver } from '../public/session-resolver.js';
import { GetUserInfo } from '../queries/user-info/get-user-info.query.js';
import { ACCESS_TOKEN_TTL_SECONDS } from '../sessions/access-tokens.js';
import type { Device, SignedIn } from '../sessions/sign-ins.js';
import { clearAuthCookies, deviceCookie, refreshCookie, setAuthCookies } from './auth-cookies.js';
import {
  CompleteSignupDto,
  LoginDto,
  LoginVerifyDto,
  PasswordResetDto,
  ResetPasswordDto,
  SignupDto,
  VerifyEmailDto,
} from './auth.dto.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** The auth routes (spec 7 paths kept exactly): each validates, runs one command or query, and shapes the answer. */
@Controller('auth')
export class AuthController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly sessions: SessionResolver,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  @ApiAnswers({ 429: 'Too many sign-ups from this address; Retry-After says when.' })
  @Post('signup')
  @HttpCode(201)
  async signup(
    @Body() body: SignupDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    const signedIn = await this.commands.execute(
      new SignUp(body.emailAddress.trim(), body.password, this.device(req), meta),
    );
    return this.signedIn(res, signedIn);
  }

  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() body: VerifyEmailDto, @CommandMeta() meta: CommandMetadata): Promise<{ message: string }> {
    await this.commands.execute(new VerifyEmail(body.token, meta));
    return { message: 'E-mail address confirmed' };
  }

  /** A new sign-up link for the signed-in account (matching waits for a confirmed address). */
  @ApiAnswers({ 429: 'At most twice an hour; Retry-After says when.' })
  @Post('verify-email/resend')
  @HttpCode(202)
  @UseGuards(AuthGuard)
  resendVerification(
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    return this.commands.execute(new ResendVerification(req.auth.userId, meta));
  }

  @Post('signup/complete')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  completeSignup(
    @Body() body: CompleteSignupDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    return this.commands.execute(new CompleteSignup(req.auth.userId, body, meta));
  }

  @ApiAnswers({
    429: 'Ten failures in 15 minutes for the account, this device or this address; Retry-After says when.',
    503: 'Too many passwords being checked at once; Retry-After says when.',
  })
  @Post('login')
  @HttpCode(200)
  async login(
    @Body() body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<LoginAnswer> {
    const answer = await this.commands.execute(
      new LogIn(body.emailAddress.trim(), body.password, this.device(req), meta),
    );
    return 'twoFactorRequired' in answer ? answer : this.signedIn(res, answer);
  }

  @ApiAnswers({ 429: 'Too many wrong codes; the account waits a while.' })
  @Post('login/verify')
  @HttpCode(200)
  async verifyLogin(
    @Body() body: LoginVerifyDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<UserInfo> {
    const signedIn = await this.commands.execute(
      new VerifyLoginCode(body.challengeId, body.code, this.device(req), meta),
    );
    return this.signedIn(res, signedIn);
  }

  @Get('user-info')
  @UseGuards(AuthGuard)
  @AllowedWhileRestricted()
  async userInfo(@Req() req: AuthenticatedRequest, @Res({ passthrough: true }) res: Response): Promise<UserInfo> {
    res.setHeader('Cache-Control', 'no-store');
    const user: UserInfo = await this.queries.execute(new GetUserInfo(req.auth.userId));
    // How this session began: the dashboard says to sign in again with the code when it was not (spec 6 Admin).
    return { ...user, signedInWithCode: req.auth.signedInWithCode };
  }

  /**
   * spec 7: status 200 is success. The new access token goes in its HttpOnly cookie only, not in the answer (a
   * deviation from spec 7 the README names: a script on the page never holds it).
   */
  @Post('refresh-token')
  @HttpCode(200)
  async refresh(
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<RefreshAnswer> {
    try {
      const tokens = await this.commands.execute(new RefreshSession(refreshCookie(req, this.config.publicUrl), meta));
      setAuthCookies(res, this.config.publicUrl, tokens);
      return { expiresInSeconds: ACCESS_TOKEN_TTL_SECONDS };
    } catch (error) {
      clearAuthCookies(res, this.config.publicUrl);
      throw error;
    }
  }

  /** spec 4: the client clears its state whatever the answer; the server ends the session it can identify. */
  @Post('logout')
  @HttpCode(200)
  @UseGuards(AuthGuard)
  @AllowedWhileRestricted()
  async logout(
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new LogOut(req.auth.userId, req.auth.sessionId, meta));
    clearAuthCookies(res, this.config.publicUrl);
    return { message: 'Logged out' };
  }

  /** 202 whatever the address: no account enumeration (spec 1 "Accounts"). */
  @Post('password-reset')
  @HttpCode(202)
  async passwordReset(@Body() body: PasswordResetDto): Promise<{ message: string }> {
    await this.commands.execute(new RequestPasswordReset(body.emailAddress.trim(), new Date()));
    return { message: PASSWORD_RESET_ANSWER };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(
    @Body() body: ResetPasswordDto,
    @Req() req: Request,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    const caller = await this.sessions.resolve(req);
    await this.commands.execute(new ResetPassword(body.token, body.newPassword, caller?.sessionId, meta));
    return { message: 'Your password was changed; sign in with the new one.' };
  }

  private device(req: Request): Device {
    return {
      userAgent: req.headers['user-agent'] ?? null,
      ip: req.ip ?? null,
      knownDeviceToken: deviceCookie(req, this.config.publicUrl),
    };
  }

  private signedIn(res: Response, signedIn: SignedIn): UserInfo {
    setAuthCookies(res, this.config.publicUrl, signedIn);
    return signedIn.user;
  }
}
