import {
  type AppealStatusValue,
  type BanHistoryEntry,
  type BanInfo,
  type BanRecordView,
  MODERATION_PATHS,
  VIOLATION_LEVELS,
  type WarningEntry,
} from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { UnexpectedAnswerError } from '../auth/auth-api';

/**
 * The calls a banned user may still make (spec 7 ban info and appeal; the ban history and warnings beyond it). While banned the
 * server refuses every other call with 403, so the banned screen makes only these.
 */
export interface ModerationApi {
  banInfo(userId: string): Promise<BanInfo>;
  appealBan(userId: string, appealExplanation: string): Promise<void>;
  banHistory(): Promise<BanHistoryEntry[]>;
  warnings(): Promise<WarningEntry[]>;
}

/** proto paths carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const APPEAL_STATUSES: readonly AppealStatusValue[] = ['none', 'pending', 'approved', 'rejected'];
const ENDINGS = ['expired', 'unbanned', 'appeal-approved'] as const;

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown) => value === undefined || isString(value);

/** The answer is the `BanRecordView` contract (proto/src/http/moderation.ts): dates, names and status as promised. */
export function isBanRecord(value: unknown): value is BanRecordView {
  if (!isObject(value)) return false;
  const { caseId, bannedUser, reason, level, bannedByWho, banDate, expiryDate, appealStatus } = value;
  return (
    isString(caseId) &&
    isObject(bannedUser) &&
    (bannedUser.firstName === null || isString(bannedUser.firstName)) &&
    isString(reason) &&
    (VIOLATION_LEVELS as readonly unknown[]).includes(level) &&
    (bannedByWho === null ||
      (isObject(bannedByWho) && isString(bannedByWho.firstName) && isString(bannedByWho.lastName))) &&
    isString(banDate) &&
    isOptionalString(expiryDate) &&
    (APPEAL_STATUSES as readonly unknown[]).includes(appealStatus) &&
    isOptionalString(value.appealExplanation)
  );
}

export function isBanInfo(value: unknown): value is BanInfo {
  return isObject(value) && typeof value.isBanned === 'boolean' && (value.ban === undefined || isBanRecord(value.ban));
}

export function isBanHistoryEntry(value: unknown): value is BanHistoryEntry {
  if (!isBanRecord(value)) return false;
  const { ended, appealedAt, appealDecision } = value as unknown as Shape;
  return (
    (ended === null ||
      (isObject(ended) && isString(ended.at) && (ENDINGS as readonly unknown[]).includes(ended.how))) &&
    isOptionalString(appealedAt) &&
    (appealDecision === undefined ||
      (isObject(appealDecision) && isString(appealDecision.at) && isString(appealDecision.note)))
  );
}

export function isWarningEntry(value: unknown): value is WarningEntry {
  if (!isObject(value)) return false;
  const { caseId, reason, level, warnedAt, warnedByWho } = value;
  return (
    isString(caseId) &&
    isString(reason) &&
    (VIOLATION_LEVELS as readonly unknown[]).includes(level) &&
    isString(warnedAt) &&
    (warnedByWho === null ||
      (isObject(warnedByWho) && isString(warnedByWho.firstName) && isString(warnedByWho.lastName)))
  );
}

export function createModerationApi(http: HttpClient): ModerationApi {
  const banHistoryPath = underApi(MODERATION_PATHS.banHistory);
  const warningsPath = underApi(MODERATION_PATHS.warnings);
  return {
    async banInfo(userId) {
      const path = underApi(MODERATION_PATHS.banInfo(userId));
      const answer = await http.get<unknown>(path);
      if (!isBanInfo(answer)) throw new UnexpectedAnswerError(path);
      return answer;
    },
    async appealBan(userId, appealExplanation) {
      await http.put<unknown>(underApi(MODERATION_PATHS.appealBan(userId)), { appealExplanation });
    },
    async banHistory() {
      const answer = await http.get<unknown>(banHistoryPath);
      if (!Array.isArray(answer) || !answer.every(isBanHistoryEntry)) throw new UnexpectedAnswerError(banHistoryPath);
      return answer;
    },
    async warnings() {
      const answer = await http.get<unknown>(warningsPath);
      if (!Array.isArray(answer) || !answer.every(isWarningEntry)) throw new UnexpectedAnswerError(warningsPath);
      return answer;
    },
  };
}

/** On the app's one HTTP client, so these share its session cookies and its refresh on 401. */
export const moderationApi = createModerationApi(httpClient);
