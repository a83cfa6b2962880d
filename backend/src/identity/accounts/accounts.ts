import { Inject, Injectable } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import { DomainError } from '../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { Position } from '../../platform/event-store/event-store.js';
import { account, type AccountCommand } from '../domain/account.decider.js';
import { type AccountEvent, accountStream } from '../domain/account.events.js';
import { AccountStanding } from '../public/account-standing.js';
import { usersProjection } from '../projections/users.projection.js';
import { readUserInfo } from './user-info.js';

/** How long an answer waits for the read model to take in the command it answers. */
const READ_YOUR_WRITE_MS = 5_000;

/**
 * The account stream as identity's command handlers use it: run the account decider, read the history it decides on,
 * and answer with the read model once it has taken the command in.
 */
@Injectable()
export class Accounts {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly standing: AccountStanding,
  ) {}

  /** The position of what the command recorded (undefined when it decided nothing). */
  async run(userId: string, command: AccountCommand, meta: CommandMetadata): Promise<Position | undefined> {
    return (await executeDecider(this.core, accountStream(userId), account, command, meta)).position;
  }

  async history(userId: string): Promise<AccountEvent[]> {
    return (await this.core.store.readStream(accountStream(userId))).map(
      (e) => ({ type: e.type, data: e.data }) as AccountEvent,
    );
  }

  async userInfo(userId: string, now: Date): Promise<UserInfo> {
    const user = await readUserInfo(this.db, this.standing, userId, now);
    if (!user) throw new DomainError('no-account', 'Unauthorized, Please Log In.', { kind: 'unauthenticated' });
    return user;
  }

  /**
   * The user as the read model shows them once it has taken in `position` (read your own write). The users read
   * model is named, so an answer waits for it even while it retries after a failure (a Postgres restart): never
   * "no such account" for an account just made, but a 503 that says it is saved if it takes too long.
   */
  async userInfoAfter(userId: string, position: Position | undefined, now: Date): Promise<UserInfo> {
    await this.caughtUpTo(position);
    return this.userInfo(userId, now);
  }

  /** Waits until the users read model has taken in `position`. */
  async caughtUpTo(position: Position | undefined): Promise<void> {
    if (position) await this.core.projections.caughtUpTo(position, READ_YOUR_WRITE_MS, [usersProjection.name]);
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

/** Has the account confirmed the address it holds (the sign-up link, or the link that moved it to a new one)? */
export function emailConfirmed(history: AccountEvent[]): boolean {
  return history.some((e) => e.type === 'EmailVerified' || e.type === 'EmailChanged');
}

export function twoFactorEnabled(history: AccountEvent[]): boolean {
  return history.reduce(
    (on, e) => (e.type === 'TwoFactorEnabled' ? true : e.type === 'TwoFactorDisabled' ? false : on),
    false,
  );
}
