import {
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  REPORT_SEVERITIES,
  REPORT_WINDOW_HOURS,
  type ReportReason,
  type ReportSeverity,
} from '@serendip/proto';
import type { ScreenshotPicture } from './screenshot-state';

/** The call a report is about, fixed when the dialog opens: it stays that call's even after the partner left. */
export interface ReportTarget {
  matchId: string;
  /** The partner's id in that call (matchFound.partnerId); a call picked from Recent calls has none (the server knows). */
  partnerId: string | null;
  partnerName: string;
}

/** What the user fills in. */
export interface ReportForm {
  reason: ReportReason | null;
  severity: ReportSeverity;
  details: string;
}

/**
 * spec 3 "Stored locally in the browser": the pending report (severity, reason, the screenshot as base64) with the ids
 * it is about, so a reload does not lose it. One at a time; it belongs to the account that wrote it.
 */
export interface ReportDraft extends ReportForm {
  reporterId: string;
  target: ReportTarget;
  screenshot: ScreenshotPicture | null;
  savedAt: number;
}

export const REPORT_DRAFT_KEY = 'serendip.reportDraft';

/** spec 9: "Severity values low, medium, high; default medium" (until a reason brings its own). */
export const INITIAL_SEVERITY: ReportSeverity = 'medium';

export const EMPTY_FORM: ReportForm = { reason: null, severity: INITIAL_SEVERITY, details: '' };

/** The server lets a screenshot's uploader attach it within an hour (proto ReportScreenshotUploaded). */
export const SCREENSHOT_ATTACHABLE_MS = 60 * 60 * 1000;
const DRAFT_LIFETIME_MS = REPORT_WINDOW_HOURS * 60 * 60 * 1000;

/** spec 2: closing asks first only when the user entered something (an automatic screenshot is not theirs). */
export function hasEnteredData(form: ReportForm): boolean {
  return form.reason !== null || form.details.trim() !== '';
}

/** A reason's default severity (spec 9). */
export function severityOf(reason: ReportReason): ReportSeverity {
  return REPORT_REASONS[reason];
}

export function isReportReason(value: unknown): value is ReportReason {
  return typeof value === 'string' && Object.hasOwn(REPORT_REASONS, value);
}

export function isReportSeverity(value: unknown): value is ReportSeverity {
  return typeof value === 'string' && (REPORT_SEVERITIES as readonly string[]).includes(value);
}

/** Throws when the browser will not store it (private mode, a full storage): the dialog says so. */
export function saveDraft(draft: ReportDraft, storage: Pick<Storage, 'setItem'> = localStorage): void {
  storage.setItem(REPORT_DRAFT_KEY, JSON.stringify(draft));
}

/**
 * The stored draft about that call, written by that account, if it is still worth finishing: a report is taken for
 * REPORT_WINDOW_HOURS after the call, and an uploaded screenshot only within the hour (older ones are left out).
 */
export function loadDraft(
  { reporterId, matchId, now }: { reporterId: string; matchId: string; now: number },
  storage: Pick<Storage, 'getItem'> = localStorage,
): ReportDraft | null {
  const draft = readDraft(storage);
  if (!draft || draft.reporterId !== reporterId || draft.target.matchId !== matchId) return null;
  if (now - draft.savedAt > DRAFT_LIFETIME_MS || draft.savedAt > now) return null;
  const screenshot =
    draft.screenshot && now - draft.screenshot.uploadedAt < SCREENSHOT_ATTACHABLE_MS ? draft.screenshot : null;
  return { ...draft, screenshot };
}

/** Which call the account's unfinished report is about (Recent calls offers to continue it). */
export function pendingDraftCall(
  { reporterId, now }: { reporterId: string; now: number },
  storage: Pick<Storage, 'getItem'> = localStorage,
): string | null {
  const draft = readDraft(storage);
  if (!draft || draft.reporterId !== reporterId || now - draft.savedAt > DRAFT_LIFETIME_MS) return null;
  return draft.target.matchId;
}

/** The call of the account's unfinished report, as the dialog named it (the wizard offers to finish it). */
export function pendingDraftTarget(
  { reporterId, now }: { reporterId: string; now: number },
  storage: Pick<Storage, 'getItem'> = localStorage,
): ReportTarget | null {
  return pendingDraftCall({ reporterId, now }, storage) ? (readDraft(storage)?.target ?? null) : null;
}

/** Forgets the draft (only that call's, when one is named). Signing out forgets any: it holds a stranger's picture. */
export function forgetDraft(matchId?: string, storage: Pick<Storage, 'getItem' | 'removeItem'> = localStorage): void {
  try {
    if (matchId !== undefined && readDraft(storage)?.target.matchId !== matchId) return;
    storage.removeItem(REPORT_DRAFT_KEY);
  } catch {
    // Storage that cannot be written holds no draft either.
  }
}

function readDraft(storage: Pick<Storage, 'getItem'>): ReportDraft | null {
  let value: unknown;
  try {
    value = JSON.parse(storage.getItem(REPORT_DRAFT_KEY) ?? 'null');
  } catch {
    return null;
  }
  return isDraft(value) ? value : null;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** Anything else in the key (an older shape, a hand edit) is ignored rather than trusted. */
function isDraft(value: unknown): value is ReportDraft {
  if (!isRecord(value) || !isRecord(value.target)) return false;
  const { target, screenshot } = value;
  return (
    isString(value.reporterId) &&
    isString(target.matchId) &&
    target.matchId !== '' &&
    (target.partnerId === null || isString(target.partnerId)) &&
    isString(target.partnerName) &&
    (value.reason === null || isReportReason(value.reason)) &&
    isReportSeverity(value.severity) &&
    isString(value.details) &&
    value.details.length <= REPORT_DETAILS_MAX_LENGTH &&
    typeof value.savedAt === 'number' &&
    (screenshot === null ||
      (isRecord(screenshot) &&
        isString(screenshot.image) &&
        screenshot.image.startsWith('data:image/') &&
        isString(screenshot.screenshotId) &&
        typeof screenshot.uploadedAt === 'number'))
  );
}
