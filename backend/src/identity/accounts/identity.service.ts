import { randomUUID } from 'node:crypto';
import { v5 as uuidv5 } from 'uuid';
import type { LoginSession, UserInfo } from '@serendip/proto';
import {
  HttpException,
  HttpStatus,
  Inject,
  Injectable,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
  UnauthorizedException,
} from '@nestjs/common';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { type CommandMetadata, executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { Position } from '../../platform/event-store/event-store.js';
import { LIMITS, type RateLimits } from '../../platform/http/rate-limits.js';
import { MAIL_SENDER, type MailSender } from '../../platform/mail/mail-sender.js';
import { account, type AccountCommand } from '../domain/account.decider.js';
import { LocationService, SIGN_IN_LOOKUP_BUDGET_MS } from '../location/location.service.js';
import { type AccountEvent, accountStream } from '../domain/account.events.js';
import { PasswordHasher } from '../passwords/password-hasher.js';
import { passwordProblem } from '../passwords/password-policy.js';
import { AccessTokens } from '../sessions/access-tokens.js';
import { hashSecret, newCode, newSecret } from '../sessions/secrets.js';
import { SessionStore } from '../sessions/session-store.js';
import { sessionStream } from '../sessions/session.events.js';
import { EmailTokens } from './email-tokens.js';
import { readUserInfo } from './user-info.js';

const VERIFY_EMAIL_TTL_MS = 24 * 3_600_000;
const LOGIN_CODE_TTL_MS = 10 * 60_000;
const LOGIN_CODE_TRIES = 5;

export interface Device {
  userAgent: string | null;
  ip: string | null;
}

/** A signed-in answer: the user, plus the cookies' tokens. */
export interface SignedIn {
  user: UserInfo;
  accessToken: string;
  refreshToken: string;
}

export const IDENTITY_TOKENS = Symbol('IDENTITY_TOKENS');
export const RATE_LIMITS = Symbol('RATE_LIMITS');
const ADMIN_BOOTSTRAP_NAMESPACE = '0b7d5a62-3c1e-4f0a-9d2b-6e8f1a4c7d30';
const RESET_PASSWORD_TTL_MS = 30 * 60_000;
export const PASSWORD_RESET_ANSWER = 'If an account exists for this address, we sent a link to reset its password.';

/** The identity use cases behind the auth routes (issue 4). Rules are the deciders'; this is the plumbing. */
@Injectable()
export class IdentityService {
  private readonly logger = new Logger(IdentityService.name);
  private readonly hasher = new PasswordHasher();
  private readonly sessions: SessionStore;
  private readonly emailTokens: EmailTokens;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(MAIL_SENDER) private readonly mail: MailSender,
    @Inject(CONFIG) private readonly config: Config,
    @Inject(IDENTITY_TOKENS) private readonly tokens: AccessTokens,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly location: LocationService,
  ) {
    this.sessions = new SessionStore(db);
    this.emailTokens = new EmailTokens(db);
  }

  /**
   * Sign-up answers alike whether or not the address already has an account (no enumeration, issue 4): either way a
   * new account is made and signed in. Only an address nobody holds is claimed by it (and gets the verification
   * link); a taken one stays with its owner, who is told by e-mail that someone tried, and the new account can never
   * verify it or log in with it. Someone who forgot they had an account learns it from their own mailbox only.
   */
  async signup(emailAddress: string, password: string, device: Device, meta: CommandMetadata): Promise<SignedIn> {
    if (device.ip) await this.limits.take(LIMITS.signupsPerIp, device.ip);
    const problem = passwordProblem(password);
    if (problem) throw badRequest(['password', problem]);
    const userId = randomUUID();
    const claimed = await this.db
      .insertInto('account_emails')
      .values({ email_lower: emailAddress.toLowerCase(), user_id: userId })
      .onConflict((oc) => oc.doNothing())
      .returning('user_id')
      .executeTakeFirst();
    try {
      const passwordHash = await this.hasher.hash(password);
      await this.execute(userId, { type: 'Register', userId, emailAddress, passwordHash }, meta);
    } catch (error) {
      if (claimed) await this.db.deleteFrom('account_emails').where('user_id', '=', userId).execute();
      throw error;
    }
    // The account exists now: a mail relay that is down must not turn that into an error (the link can be sent again).
    const mail = claimed ? this.sendVerification(userId, emailAddress, meta.now) : this.sendAddressInUse(emailAddress);
    await mail.catch((error: unknown) =>
      this.logger.error(`sign-up mail failed: ${error instanceof Error ? error.message : String(error)}`),
    );
    return this.startSession(userId, device, meta);
  }

  /** The e-mailed link of a sign-up (confirms the address) or of an e-mail change (the new address takes over). */
  async verifyEmail(token: string, meta: CommandMetadata): Promise<void> {
    const redeemed = await this.emailTokens.redeem(token, ['verify-email', 'change-email'], meta.now);
    if (redeemed.purpose === 'change-email' && redeemed.newEmail) {
      await this.switchEmail(redeemed.userId, redeemed.newEmail, meta);
      return;
    }
    await this.execute(redeemed.userId, { type: 'VerifyEmail' }, meta);
  }

  /**
   * The new address replaces the old one: claimed first (it may have been taken since the link was sent), then
   * recorded, then the old one freed and told.
   */
  private async switchEmail(userId: string, newEmail: string, meta: CommandMetadata): Promise<void> {
    const old = await this.db
      .selectFrom('account_emails')
      .select('email_lower')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    try {
      // One address per account: the row moves to the new address (or is made, for an account that never held
      // one), and fails if someone holds that address now.
      if (old) {
        await this.db
          .updateTable('account_emails')
          .set({ email_lower: newEmail.toLowerCase() })
          .where('user_id', '=', userId)
          .execute();
      } else {
        await this.db
          .insertInto('account_emails')
          .values({ email_lower: newEmail.toLowerCase(), user_id: userId })
          .execute();
      }
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw badRequest(['token', 'this address belongs to another account now']);
      }
      throw error;
    }
    await this.execute(userId, { type: 'ChangeEmail', emailAddress: newEmail }, meta);
    if (old && old.email_lower !== newEmail.toLowerCase()) {
      await this.mail
        .send({
          to: old.email_lower,
          subject: 'Your Serendip e-mail address was changed',
          text: `The e-mail address of your Serendip account was changed to ${maskEmail(newEmail)}. From now on, log in with the new address.\n\nIf you did not do this, reset your password at ${this.config.publicUrl}/auth/password-reset and write to us.`,
        })
        .catch((error: unknown) =>
          this.logger.error(`e-mail change notice failed: ${error instanceof Error ? error.message : String(error)}`),
        );
    }
  }

  async completeSignup(
    userId: string,
    profile: Omit<Extract<AccountCommand, { type: 'CompleteProfile' }>, 'type'>,
    meta: CommandMetadata,
  ): Promise<UserInfo> {
    const taken = await this.db
      .selectFrom('users')
      .select('user_id')
      .where((eb) => eb(eb.fn('lower', ['username']), '=', profile.username.toLowerCase()))
      .where('user_id', '!=', userId)
      .executeTakeFirst();
    if (taken) throw badRequest(['username', 'this username is taken']);
    const position = await this.execute(userId, { type: 'CompleteProfile', ...profile }, meta);
    return this.userInfoAfter(userId, position, meta.now);
  }

  /** Wrong e-mail and wrong password read the same and take the same time (no account enumeration). */
  async login(emailAddress: string, password: string, device: Device, meta: CommandMetadata) {
    const emailLower = emailAddress.toLowerCase();
    await this.limits.check(LIMITS.loginFailuresPerAccount, emailLower);
    if (device.ip) await this.limits.check(LIMITS.loginFailuresPerIp, device.ip);
    const owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    const history = owner ? await this.history(owner.user_id) : [];
    if (!(await this.hasher.verify(currentPasswordHash(history), password)) || !owner) {
      await this.limits.consume(LIMITS.loginFailuresPerAccount, emailLower);
      if (device.ip) await this.limits.consume(LIMITS.loginFailuresPerIp, device.ip);
      throw new UnauthorizedException('Wrong e-mail address or password');
    }
    await this.limits.reset(LIMITS.loginFailuresPerAccount, emailLower);
    const twoFactor = history.reduce(
      (on, e) => (e.type === 'TwoFactorEnabled' ? true : e.type === 'TwoFactorDisabled' ? false : on),
      false,
    );
    if (!twoFactor) return this.startSession(owner.user_id, device, meta);

    const challengeId = randomUUID();
    const code = newCode();
    await this.db
      .insertInto('auth_login_challenges')
      .values({
        challenge_id: challengeId,
        user_id: owner.user_id,
        code_hash: hashSecret(code),
        expires_at: new Date(meta.now.getTime() + LOGIN_CODE_TTL_MS),
        used_at: null,
      })
      .execute();
    await this.sendOrUnavailable({
      to: emailAddress,
      subject: 'Your Serendip sign-in code',
      text: `Your sign-in code is ${code}. It works once, for 10 minutes.\n\nIf you did not try to sign in, change your password.`,
    });
    return { twoFactorRequired: true as const, challengeId };
  }

  async verifyLoginCode(challengeId: string, code: string, device: Device, meta: CommandMetadata): Promise<SignedIn> {
    const challenge = await this.db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('auth_login_challenges')
        .selectAll()
        .where('challenge_id', '=', challengeId)
        .forUpdate()
        .executeTakeFirst();
      if (!row || row.used_at || row.expires_at <= meta.now || row.attempts >= LOGIN_CODE_TRIES) return undefined;
      if (row.code_hash !== hashSecret(code)) {
        await trx
          .updateTable('auth_login_challenges')
          .set({ attempts: row.attempts + 1 })
          .where('challenge_id', '=', challengeId)
          .execute();
        return undefined;
      }
      await trx
        .updateTable('auth_login_challenges')
        .set({ used_at: meta.now })
        .where('challenge_id', '=', challengeId)
        .execute();
      return row;
    });
    if (!challenge) throw new UnauthorizedException('Wrong or expired code');
    return this.startSession(challenge.user_id, device, meta);
  }

  async userInfo(userId: string, now: Date): Promise<UserInfo> {
    const user = await readUserInfo(this.db, userId, now);
    if (!user) throw new UnauthorizedException('Unauthorized, Please Log In.');
    return user;
  }

  /** Rotates the refresh token; a token already used means theft, so the whole session ends. */
  async refresh(refreshToken: string | undefined, meta: CommandMetadata) {
    if (!refreshToken) throw new UnauthorizedException('Session expired');
    const rotation = await this.sessions.rotate(refreshToken, meta.now);
    if (rotation.outcome === 'invalid') throw new UnauthorizedException('Session expired');
    if (rotation.outcome === 'reused') {
      if (await this.sessions.end(rotation.sessionId, 'refresh token reused', meta.now)) {
        await this.appendSessionEvent(
          rotation.sessionId,
          { type: 'SessionCompromised', data: { sessionId: rotation.sessionId, userId: rotation.userId } },
          meta,
        );
      }
      this.logger.warn(`refresh token reuse ended session ${rotation.sessionId}`);
      throw new UnauthorizedException('Session expired');
    }
    const accessToken = await this.tokens.sign({ userId: rotation.userId, sessionId: rotation.sessionId }, meta.now);
    return { accessToken, refreshToken: rotation.refreshToken };
  }

  async logout(userId: string, sessionId: string, meta: CommandMetadata): Promise<void> {
    if (await this.sessions.end(sessionId, 'logout', meta.now)) {
      await this.appendSessionEvent(
        sessionId,
        { type: 'SessionEnded', data: { sessionId, userId, reason: 'logout' } },
        meta,
      );
    }
  }

  /**
   * Always the same answer, at once: whether the address has an account, and whether its hourly mail limit is
   * used up, shows neither in the answer nor in its timing (the work goes on after answering).
   */
  requestPasswordReset(emailAddress: string, now: Date): void {
    void this.sendPasswordReset(emailAddress.toLowerCase(), now).catch((error: unknown) =>
      this.logger.error(`password reset mail failed: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private async sendPasswordReset(emailLower: string, now: Date): Promise<void> {
    const owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    if (!owner || !(await this.limits.allow(LIMITS.mailsPerAddress, emailLower))) return;
    const token = newSecret();
    await this.emailTokens.issue(token, owner.user_id, 'reset-password', RESET_PASSWORD_TTL_MS, now);
    await this.mail.send({
      to: emailLower,
      subject: 'Reset your Serendip password',
      text: `Choose a new password with this link (valid for 30 minutes, once):\n${this.config.publicUrl}/reset-password/${token}\n\nIf you did not ask for it, ignore this e-mail: your password stays as it is.`,
    });
  }

  /** A new password from an e-mailed link; every session of the user ends but the caller's own (if any). */
  async resetPassword(
    token: string,
    newPassword: string,
    keepSessionId: string | undefined,
    meta: CommandMetadata,
  ): Promise<void> {
    const problem = passwordProblem(newPassword);
    if (problem) throw badRequest(['newPassword', problem]);
    const { userId } = await this.emailTokens.redeem(token, ['reset-password'], meta.now);
    await this.execute(userId, { type: 'ResetPassword', passwordHash: await this.hasher.hash(newPassword) }, meta);
    for (const sessionId of await this.sessions.activeSessionsOf(userId, meta.now, keepSessionId)) {
      if (await this.sessions.end(sessionId, 'password reset', meta.now)) {
        await this.appendSessionEvent(
          sessionId,
          { type: 'SessionEnded', data: { sessionId, userId: userId, reason: 'password reset' } },
          meta,
        );
      }
    }
  }

  /** spec 3 "Login session": the user's active sessions, the caller's marked. */
  async listSessions(userId: string, currentSessionId: string, now: Date): Promise<LoginSession[]> {
    const rows = await this.db
      .selectFrom('auth_sessions')
      .select(['session_id', 'created_at', 'user_agent', 'ip', 'country', 'city'])
      .where('user_id', '=', userId)
      .where('ended_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .execute();
    return rows.map((r) => ({
      _id: r.session_id,
      createdAt: r.created_at.toISOString(),
      userAgent: r.user_agent,
      ip: r.ip,
      city: r.city,
      country: r.country,
      isCurrent: r.session_id === currentSessionId,
    }));
  }

  /** Ends one of the user's own sessions; another user's session id is answered as unknown. */
  async endSession(userId: string, sessionId: string, meta: CommandMetadata): Promise<void> {
    const owned = await this.db
      .selectFrom('auth_sessions')
      .select('user_id')
      .where('session_id', '=', sessionId)
      .executeTakeFirst();
    if (!owned || owned.user_id !== userId) throw new NotFoundException('No such session');
    if (await this.sessions.end(sessionId, 'ended by the user', meta.now)) {
      await this.appendSessionEvent(
        sessionId,
        { type: 'SessionEnded', data: { sessionId, userId, reason: 'ended by the user' } },
        meta,
      );
    }
  }

  /** Ends every active session of the user but `keep` (the caller's own); answers how many ended. */
  async endOtherSessions(userId: string, keep: string, meta: CommandMetadata): Promise<number> {
    const others = await this.sessions.activeSessionsOf(userId, meta.now, keep);
    for (const other of others) await this.endSession(userId, other, meta);
    return others.length;
  }

  async setTwoFactor(userId: string, enabled: boolean, meta: CommandMetadata): Promise<UserInfo> {
    const position = await this.execute(userId, { type: enabled ? 'EnableTwoFactor' : 'DisableTwoFactor' }, meta);
    return this.userInfoAfter(userId, position, meta.now);
  }

  /** issue 8 "hide my IP": from the next call on, this user's calls are relayed through the SFU. */
  async setHideIp(userId: string, hideIp: boolean, meta: CommandMetadata): Promise<UserInfo> {
    const position = await this.execute(userId, { type: 'SetHideIp', hideIp }, meta);
    return this.userInfoAfter(userId, position, meta.now);
  }

  /**
   * ADMIN_EMAIL + ADMIN_PASSWORD at start: the account exists (made and verified if new) and is an admin.
   * Deterministic command ids make every restart a no-op after the first.
   */
  async ensureAdmin(emailAddress: string, password: string, now: Date): Promise<string> {
    const emailLower = emailAddress.toLowerCase();
    const meta = (step: string): CommandMetadata => ({
      commandId: uuidv5(`admin-bootstrap:${emailLower}:${step}`, ADMIN_BOOTSTRAP_NAMESPACE),
      correlationId: randomUUID(),
      actor: 'system',
      now,
    });
    let owner = await this.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailLower)
      .executeTakeFirst();
    if (!owner) {
      const problem = passwordProblem(password);
      if (problem) throw new Error(`ADMIN_PASSWORD: ${problem}`);
      const userId = randomUUID();
      await this.db.insertInto('account_emails').values({ email_lower: emailLower, user_id: userId }).execute();
      await this.execute(
        userId,
        { type: 'Register', userId, emailAddress, passwordHash: await this.hasher.hash(password) },
        meta('register'),
      );
      await this.execute(userId, { type: 'VerifyEmail' }, meta('verify'));
      owner = { user_id: userId };
    }
    return this.grantAdmin(owner.user_id, 'system', meta('grant'));
  }

  /** AdminGranted, recording who granted it; returns the user id. */
  async grantAdmin(userId: string, grantedBy: string, meta: CommandMetadata): Promise<string> {
    await this.execute(userId, { type: 'GrantAdmin', grantedBy }, meta);
    return userId;
  }

  /** The caller's session when the request carries a valid one (routes open to everyone use it). */
  async sessionOf(req: { headers: Record<string, unknown>; cookies?: Record<string, unknown> }) {
    const header = req.headers.authorization;
    const fromCookie = req.cookies?.accessToken;
    const token =
      typeof header === 'string' && header.startsWith('Bearer ')
        ? header.slice(7)
        : typeof fromCookie === 'string'
          ? fromCookie
          : undefined;
    const claims = token ? await this.tokens.verify(token) : undefined;
    return claims && (await this.sessions.isActive(claims.sessionId, new Date())) ? claims : undefined;
  }

  isSessionActive(sessionId: string, now: Date): Promise<boolean> {
    return this.sessions.isActive(sessionId, now);
  }

  /** Every sign-in (password, sign-up, 2FA code) ends here; it also notes where the user is (issue 6, spec 4). */
  private async startSession(userId: string, device: Device, meta: CommandMetadata): Promise<SignedIn> {
    const place = await this.location.placeOf(device.ip, SIGN_IN_LOOKUP_BUDGET_MS);
    const { sessionId, refreshToken } = await this.sessions.start(userId, device, place, meta.now);
    const started = await this.appendSessionEvent(
      sessionId,
      { type: 'SessionStarted', data: { sessionId, userId, ip: device.ip, userAgent: device.userAgent, ...place } },
      meta,
    );
    const moved = await this.location.recordAfterSignIn(userId, place, meta);
    const accessToken = await this.tokens.sign({ userId, sessionId }, meta.now);
    return { user: await this.userInfoAfter(userId, moved ?? started, meta.now), accessToken, refreshToken };
  }

  /** Mail the user is waiting for right now: if it cannot go, say so (503), rather than a bare 500. */
  private async sendOrUnavailable(mail: { to: string; subject: string; text: string }): Promise<void> {
    try {
      await this.mail.send(mail);
    } catch (error) {
      this.logger.error(`mail failed: ${error instanceof Error ? error.message : String(error)}`);
      throw new ServiceUnavailableException('We could not send the e-mail; please try again in a moment');
    }
  }

  /** To the owner of an address someone tried to sign up with: what they can do, and that nothing changed. */
  private async sendAddressInUse(emailAddress: string): Promise<void> {
    if (!(await this.limits.allow(LIMITS.mailsPerAddress, emailAddress.toLowerCase()))) return;
    const site = this.config.publicUrl;
    await this.mail.send({
      to: emailAddress,
      subject: 'Someone tried to sign up for Serendip with your e-mail address',
      text: `Someone, maybe you, tried to create a Serendip account with this e-mail address. You already have an account, so we did not give them this address.\n\nIf it was you: log in at ${site}/auth/login, or choose a new password at ${site}/auth/password-reset.\n\nIf it was not you, there is nothing to do: nobody got into your account.`,
    });
  }

  private async sendVerification(userId: string, emailAddress: string, now: Date): Promise<void> {
    if (!(await this.limits.allow(LIMITS.mailsPerAddress, emailAddress.toLowerCase()))) return;
    const token = newSecret();
    await this.emailTokens.issue(token, userId, 'verify-email', VERIFY_EMAIL_TTL_MS, now);
    const link = `${this.config.publicUrl}/auth/verify-email?token=${token}`;
    await this.mail.send({
      to: emailAddress,
      subject: 'Confirm your e-mail address for Serendip',
      text: `Welcome to Serendip!\n\nConfirm your e-mail address with this link (valid for 24 hours):\n${link}\n\nIf you did not sign up, ignore this e-mail.`,
    });
  }

  private async execute(userId: string, command: AccountCommand, meta: CommandMetadata): Promise<Position | undefined> {
    return (await executeDecider(this.core, accountStream(userId), account, command, meta)).position;
  }

  private async appendSessionEvent(sessionId: string, event: { type: string; data: unknown }, meta: CommandMetadata) {
    const metadata = {
      causationId: meta.commandId,
      correlationId: meta.correlationId,
      actor: meta.actor,
      occurredAt: meta.now.toISOString(),
      schemaVersion: 1,
    };
    const stored = await this.core.store.append(
      sessionStream(sessionId),
      [{ id: randomUUID(), ...event, metadata }],
      'any',
    );
    return stored.position;
  }

  private async history(userId: string): Promise<AccountEvent[]> {
    return (await this.core.store.readStream(accountStream(userId))).map(
      (e) => ({ type: e.type, data: e.data }) as AccountEvent,
    );
  }

  /** Answers right after a command read the read model once it has taken that command in. */
  private async userInfoAfter(userId: string, position: Position | undefined, now: Date): Promise<UserInfo> {
    if (position) await this.core.projections.caughtUpTo(position, 5000);
    return this.userInfo(userId, now);
  }
}

export function currentPasswordHash(history: AccountEvent[]): string | undefined {
  let hash: string | undefined;
  for (const e of history) {
    if (e.type === 'UserRegistered' || e.type === 'PasswordChanged' || e.type === 'PasswordReset') {
      hash = typeof e.data.passwordHash === 'string' ? e.data.passwordHash : undefined;
    }
  }
  return hash;
}

/** A 400 in the shape class-validator answers: `message` lists "field: problem" lines. */
export function badRequest(...problems: [field: string, problem: string][]): HttpException {
  return new HttpException(
    {
      statusCode: HttpStatus.BAD_REQUEST,
      message: problems.map(([field, problem]) => `${field}: ${problem}`),
      error: 'Bad Request',
    },
    HttpStatus.BAD_REQUEST,
  );
}

/** 'ada.lovelace@example.com' -> 'a•••@example.com': enough for the owner to recognise, little for anyone else. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  return at <= 0 ? '•••' : `${address[0]}•••${address.slice(at)}`;
}
