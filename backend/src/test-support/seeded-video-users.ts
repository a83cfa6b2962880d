/**
 * Many signed-in, finished, e-mail-confirmed users at once, for load tests of the video socket (a matching storm).
 *
 * The product's path for one such user is three HTTP requests and a mail: POST /auth/signup (the SignUp command:
 * claim the address, hash the password with argon2id, run `Register` on the account stream, mail the confirmation
 * link, start the session with `SignIns.start`), POST /auth/verify-email with the mailed token (VerifyEmail: the
 * address held, then `VerifyEmail` on the account stream) and POST /auth/signup/complete (CompleteSignup: the username
 * checked free, then `CompleteProfile`). `videoUser` walks it for real; at 30-50 ms of argon2 CPU per sign-up, and
 * with a round trip to the read model after each step, thousands of them do not fit a test run.
 *
 * Here, per user, through identity's own code:
 * - the address is claimed in `account_emails` as SignUp claims it (all in one insert);
 * - the account decider (`account`) decides Register, VerifyEmail and CompleteProfile in turn, each on the state the
 *   one before left, and `executeDecider` appends what it decided (UserRegistered, EmailVerified, ProfileCompleted) in
 *   one append to the account stream, personal data sealed as for any command; one argon2id hash, with the product's
 *   parameters, is made once and registered for everyone;
 * - the session starts with `SignIns.start`, the code every sign-in ends in (session row, refresh token,
 *   SessionStarted, known device, the access token the cookie carries), and answers once the users read model has
 *   taken all of it in.
 * Skipped: the HTTP layer (DTO checks, rate limits, cookies set by a response), the per-user hash, the mail and its
 * token, CompleteSignup's check that the username is free (each is unique here), and the three commands' own ids (the
 * three events share one causation, where three requests would give three). What follows is untouched: the
 * access token travels as the access-token cookie of a real handshake, and the server resolves it and reads the users
 * read model (built by the projections from these events) as for anyone.
 */
import { randomUUID } from 'node:crypto';
import type { INestApplicationContext } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import type { Config } from '../config/config.js';
import { CONFIG } from '../config/config.token.js';
import { canonicalEmail, emailKey } from '../identity/accounts/email-address.js';
import type { ProfileToComplete } from '../identity/commands/complete-signup/complete-signup.command.js';
import { account, type AccountCommand, type AccountState } from '../identity/domain/account.decider.js';
import { type AccountEvent, accountStream } from '../identity/domain/account.events.js';
import { PasswordHasher } from '../identity/passwords/password-hasher.js';
import { authCookieNames } from '../identity/sessions/auth-cookies.js';
import { SignIns } from '../identity/sessions/sign-ins.js';
import type { Decider } from '../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../platform/event-core/event-core.js';
import { ApiClient } from './api-client.js';
import { openVideoSocket, VIDEO_USER_PASSWORD, type VideoClient } from './video-users.js';

export interface SeededProfile {
  firstName: string;
  gender: 'male' | 'female';
  /** YYYY-MM-DD */
  birthDate: string;
}

export interface SeededVideoUser {
  userId: string;
  emailAddress: string;
  /** The read model's answer once everything was taken in (finished, confirmed). */
  user: UserInfo;
  /** Holds the session's access-token cookie, as the browser's jar would after sign-up. */
  api: ApiClient;
  /** Opens the video socket with the session cookie; resolves once connected (`prepare` as in openVideoSocket). */
  connect(prepare?: (socket: VideoClient) => void): Promise<VideoClient>;
}

/** Users made at once: enough to keep the pools busy while each waits for the read model. */
const AT_ONCE = 16;

/**
 * One finished, confirmed, signed-in user per profile, all with the password VIDEO_USER_PASSWORD (hashed once). See
 * the header for what is the product's path and what is skipped.
 */
export async function seedVideoUsers(
  app: INestApplicationContext,
  base: string,
  profiles: readonly SeededProfile[],
): Promise<SeededVideoUser[]> {
  const db = app.get<Db>(DATABASE);
  const core = app.get<EventCore>(EVENT_CORE);
  const signIns = app.get(SignIns);
  const accessCookie = authCookieNames(app.get<Config>(CONFIG).publicUrl).access;
  const passwordHash = await new PasswordHasher().hash(VIDEO_USER_PASSWORD);
  const run = randomUUID().slice(0, 8);
  const people = profiles.map((profile, n) => ({
    profile,
    n,
    userId: randomUUID(),
    emailAddress: canonicalEmail(`seeded-${run}-${n}@example.com`),
  }));
  // SignUp's claim on each address, as it makes it (before the account is registered).
  const claimedAt = new Date();
  for (let i = 0; i < people.length; i += 1_000) {
    await db
      .insertInto('account_emails')
      .values(
        people
          .slice(i, i + 1_000)
          .map((p) => ({ email_lower: emailKey(p.emailAddress), user_id: p.userId, claimed_at: claimedAt })),
      )
      .execute();
  }

  const make = async ({ profile, n, userId, emailAddress }: (typeof people)[number]): Promise<SeededVideoUser> => {
    const completed: ProfileToComplete = { ...profile, lastName: 'Seeded', username: `seeded_${run}_${n}` };
    const commands: AccountCommand[] = [
      { type: 'Register', userId, emailAddress, passwordHash },
      { type: 'VerifyEmail' },
      { type: 'CompleteProfile', ...completed },
    ];
    await executeDecider(core, accountStream(userId), inTurn(account), commands, meta());
    const api = new ApiClient(base);
    const signedIn = await signIns.start(userId, { userAgent: 'seeded-video-user', ip: api.ip }, meta(), 'password');
    api.cookies.set(accessCookie, signedIn.accessToken);
    const { user } = signedIn;
    if (!user.emailVerified || !user.isFinishedSteps) {
      throw new Error(`seeded user ${userId} is not finished and confirmed: ${JSON.stringify(user)}`);
    }
    return { userId, emailAddress, user, api, connect: (prepare) => openVideoSocket(base, api, undefined, prepare) };
  };

  const made: SeededVideoUser[] = new Array(people.length);
  let next = 0;
  const worker = async () => {
    while (next < people.length) {
      const i = next++;
      made[i] = await make(people[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, people.length) }, worker));
  return made;
}

/** A decider that decides several commands in turn, each on the state the events of the ones before left. */
function inTurn(
  decider: Decider<AccountCommand, AccountState, AccountEvent>,
): Decider<AccountCommand[], AccountState, AccountEvent> {
  return {
    initialState: decider.initialState,
    evolve: decider.evolve,
    decide(commands, state, context) {
      const events: AccountEvent[] = [];
      for (const command of commands) {
        const decided = decider.decide(command, state, context);
        events.push(...decided);
        state = decided.reduce(decider.evolve, state);
      }
      return events;
    },
  };
}

/** As `commandMetaOf` makes it for a request made before sign-in (the actor is anonymous). */
function meta(): CommandMetadata {
  return { commandId: randomUUID(), correlationId: randomUUID(), actor: 'anonymous', now: new Date() };
}
