import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { ReadModelBehind } from '../../platform/projections/projection-engine.js';
import { Accounts } from '../accounts/accounts.js';
import { LocationService, SIGN_IN_LOOKUP_BUDGET_MS } from '../location/location.service.js';
import { ACCESS_TOKENS } from '../public/session-resolver.js';
import { AccessTokens } from './access-tokens.js';
import { KnownDevices } from './known-devices.js';
import { SessionStore } from './session-store.js';
import { type SessionEvent, sessionStream } from './session.events.js';

export interface Device {
  userAgent: string | null;
  ip: string | null;
  /** The browser's device cookie, if it has one (`KnownDevices`). */
  knownDeviceToken?: string;
}

/** A signed-in answer: the user, plus the cookies' tokens. */
export interface SignedIn {
  user: UserInfo;
  accessToken: string;
  refreshToken: string;
  /** This browser is now a known device of the account. */
  deviceToken: string;
}

/** A sign-in (or sign-up) recorded while the users read model lags too far behind to answer it (a 503). */
export const SIGN_IN_BEHIND =
  'Your account is ready but Serendip is slow to show it right now; please log in again in a few seconds';

/**
 * Sessions begin and end here (spec 3 "Login session"): a row for the fast checks every request makes, and an event
 * for the log, which also closes the session's sockets on every node (SessionEnded, DESIGN.md "Fan-out: NATS").
 */
@Injectable()
export class SignIns {
  readonly store: SessionStore;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) db: Db,
    @Inject(ACCESS_TOKENS) readonly tokens: AccessTokens,
    private readonly accounts: Accounts,
    private readonly location: LocationService,
    private readonly knownDevices: KnownDevices,
  ) {
    this.store = new SessionStore(db);
  }

  /**
   * Every sign-in (password, sign-up, 2FA code) ends here; it also notes where the user is (spec 4). `how`: 'code' only
   * from the mailed sign-in code's check (VerifyLoginCode); the session keeps it for life (staff need it, spec 6 Admin).
   */
  async start(userId: string, device: Device, meta: CommandMetadata, how: 'password' | 'code'): Promise<SignedIn> {
    const signedInWithCode = how === 'code';
    const place = await this.location.placeOf(device.ip, SIGN_IN_LOOKUP_BUDGET_MS);
    const { sessionId, refreshToken } = await this.store.start(userId, device, place, signedInWithCode, meta.now);
    const started = await this.record(
      sessionId,
      {
        type: 'SessionStarted',
        data: { sessionId, userId, ip: device.ip, userAgent: device.userAgent, ...place, signedInWithCode },
      },
      meta,
    );
    const moved = await this.location.recordAfterSignIn(userId, place, meta);
    const accessToken = await this.tokens.sign({ userId, sessionId, signedInWithCode }, meta.now);
    const deviceToken = await this.knownDevices.remember(userId, device.knownDeviceToken, meta.now);
    const user = await this.accounts.userInfoAfter(userId, moved ?? started, meta.now).catch((error: unknown) => {
      // The account exists (a sign-up's is made): say so, or a retried sign-up would hear its address is taken.
      if (error instanceof ReadModelBehind) throw new ReadModelBehind(SIGN_IN_BEHIND);
      throw error;
    });
    return { user: { ...user, signedInWithCode }, accessToken, refreshToken, deviceToken };
  }

  /** Ends a session once (true if it was still active), and records why. */
  async end(userId: string, sessionId: string, reason: string, meta: CommandMetadata): Promise<boolean> {
    if (!(await this.store.end(sessionId, reason, meta.now))) return false;
    await this.record(sessionId, { type: 'SessionEnded', data: { sessionId, userId, reason } }, meta);
    return true;
  }

  /** Ends every active session of the user but `keep`; answers how many ended. */
  async endAll(userId: string, reason: string, meta: CommandMetadata, keep?: string): Promise<number> {
    let ended = 0;
    for (const sessionId of await this.store.activeSessionsOf(userId, meta.now, keep)) {
      if (await this.end(userId, sessionId, reason, meta)) ended++;
    }
    return ended;
  }

  /** A session's events are facts about one sign-in: appended as they happen, with no decision to make. */
  async record(sessionId: string, event: SessionEvent, meta: CommandMetadata) {
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
}
