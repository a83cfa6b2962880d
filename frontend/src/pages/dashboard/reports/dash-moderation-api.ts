import {
  API_PREFIX,
  DASH_MODERATION_PATHS,
  type BanUserRequest,
  type DashAppealsPage,
  type DashReport,
  type DecideAppealRequest,
  type PenaltySuggestionView,
  type ReportReason,
  type ReportSeverity,
  type ReportStatus,
  TOTAL_COUNT_HEADER,
  TOTAL_PAGES_HEADER,
  type ViolationLevel,
} from '@serendip/proto';
import { get, getWithHeaders, post } from '../../../shared/http/http-client';

/** DASH_MODERATION_PATHS carry the /api prefix; the HTTP client adds it itself. */
const underApi = (path: string) => path.slice(API_PREFIX.length + 1);

export interface ReportFilters {
  status: ReportStatus | 'all';
  severity: ReportSeverity | 'all';
  reason?: ReportReason;
}

export interface ReportsPageAnswer {
  reports: DashReport[];
  total: number;
  totalPages: number;
}

/** spec 7 GET /dash/report/get-all: the spec's array, the paging in X-Total-Count and X-Total-Pages. */
export async function fetchReports(page: number, filters: ReportFilters, signal?: AbortSignal) {
  const query = new URLSearchParams({ page: String(page), status: filters.status });
  if (filters.severity !== 'all') query.set('severity', filters.severity);
  if (filters.reason) query.set('reason', filters.reason);
  const { body, headers } = await getWithHeaders<DashReport[]>(`${underApi(DASH_MODERATION_PATHS.reports)}?${query}`, {
    signal,
  });
  if (!Array.isArray(body)) throw new Error('The report list answered something else than a list');
  return {
    reports: body,
    total: Number(headers.get(TOTAL_COUNT_HEADER) ?? body.length),
    totalPages: Math.max(1, Number(headers.get(TOTAL_PAGES_HEADER) ?? 1)),
  } satisfies ReportsPageAnswer;
}

/** A note is optional for a dismissal, required for a false report (it judges the reporter); an empty one is left out. */
export function resolveReport(reportId: string, outcome: 'dismissed' | 'false', note = '') {
  return post<{ message: string }>(underApi(DASH_MODERATION_PATHS.resolveReport(reportId)), {
    outcome,
    ...(note ? { note } : {}),
  });
}

export function fetchPenaltySuggestion(userId: string, level: ViolationLevel, signal?: AbortSignal) {
  return get<PenaltySuggestionView>(`${underApi(DASH_MODERATION_PATHS.penaltySuggestion(userId))}?level=${level}`, {
    signal,
  });
}

export function banUser(userId: string, request: BanUserRequest) {
  return post<{ caseId: string }>(underApi(DASH_MODERATION_PATHS.ban(userId)), request);
}

export function fetchAppeals(page: number, signal?: AbortSignal) {
  return get<DashAppealsPage>(`${underApi(DASH_MODERATION_PATHS.appeals)}?page=${page}`, { signal });
}

export function decideAppeal(caseId: string, request: DecideAppealRequest) {
  return post<{ message: string }>(underApi(DASH_MODERATION_PATHS.decideAppeal(caseId)), request);
}
