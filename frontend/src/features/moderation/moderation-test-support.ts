import { AUTH_PATHS, type BanHistoryEntry, type BanRecordView, MODERATION_PATHS } from '@serendip/proto';
import {
  aUser,
  type FakeServer,
  rememberSessionInThisBrowser,
  reply,
  type Responder,
  serveFakeApi,
} from '../auth/auth-test-support';

/** Test-only: bans as the server shows them, and a signed-in banned user behind the fake API. */

export function aBan(overrides: Partial<BanRecordView> = {}): BanRecordView {
  return {
    caseId: 'case-7f3a',
    bannedUser: { firstName: 'Ada' },
    reason: 'Harassment during a call',
    level: 'moderate',
    bannedByWho: { firstName: 'Grace', lastName: 'Hopper' },
    // Local times, so the expected text is the same in every time zone.
    banDate: new Date(2026, 10, 19, 9, 30).toISOString(),
    expiryDate: new Date(2030, 10, 26, 15, 4).toISOString(),
    appealStatus: 'none',
    ...overrides,
  };
}

export function aHistoryEntry(overrides: Partial<BanHistoryEntry> = {}): BanHistoryEntry {
  return { ...aBan(), ended: null, ...overrides };
}

export const BANNED_USER_PATHS = {
  banInfo: MODERATION_PATHS.banInfo('user-1'),
  appeal: MODERATION_PATHS.appealBan('user-1'),
  banHistory: MODERATION_PATHS.banHistory,
  warnings: MODERATION_PATHS.warnings,
} as const;

/** user-1 (Ada Lovelace) is signed in and banned with `ban`; ban-info answers with `banInfo` when given. */
export function signedInBanned(ban: BanRecordView | null = aBan(), banInfo?: Responder): FakeServer {
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, aUser({ isBanned: true })))
    .on('GET', BANNED_USER_PATHS.banInfo, banInfo ?? reply(200, ban ? { isBanned: true, ban } : { isBanned: false }));
  rememberSessionInThisBrowser();
  return server;
}

/** Every call the page made but the health check (the server answers a banned account's other calls with 403). */
export function callsMade(server: FakeServer): string[] {
  return server.requests.filter((r) => !r.path.endsWith('/health')).map((r) => `${r.method} ${r.path}`);
}
