import { MODERATION_PATHS, type RecentCall, type SubmitReportRequest } from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { UnexpectedAnswerError } from '../auth/auth-api';
import { type UploadScreenshot, uploadScreenshot } from './screenshot-upload';

/** The report calls (spec 7 POST /report/submit-report, and the screenshot upload and Recent calls beside it). */
export interface ReportsApi {
  uploadScreenshot: UploadScreenshot;
  /** spec 7: 201 is success; the answer's id is not needed by the dialog. */
  submitReport(request: SubmitReportRequest): Promise<void>;
  recentCalls(): Promise<RecentCall[]>;
}

/** MODERATION_PATHS carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const PATHS = {
  submitReport: underApi(MODERATION_PATHS.submitReport),
  recentCalls: underApi(MODERATION_PATHS.recentCalls),
} as const;

export function createReportsApi(http: HttpClient, upload: UploadScreenshot): ReportsApi {
  return {
    uploadScreenshot: upload,
    async submitReport(request) {
      await http.post<unknown>(PATHS.submitReport, request);
    },
    async recentCalls() {
      const answer = await http.get<unknown>(PATHS.recentCalls);
      if (!Array.isArray(answer) || !answer.every(isRecentCall)) throw new UnexpectedAnswerError(PATHS.recentCalls);
      return answer;
    },
  };
}

export const reportsApi = createReportsApi(httpClient, uploadScreenshot);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isNullableString = (value: unknown) => value === null || typeof value === 'string';

function isRecentCall(value: unknown): value is RecentCall {
  if (!isRecord(value) || !isRecord(value.partner)) return false;
  const { partner } = value;
  return (
    typeof value.matchId === 'string' &&
    typeof partner.firstName === 'string' &&
    isNullableString(partner.avatar) &&
    isNullableString(partner.country) &&
    typeof value.startedAt === 'string' &&
    isNullableString(value.endedAt) &&
    (value.durationMs === null || typeof value.durationMs === 'number') &&
    typeof value.reported === 'boolean'
  );
}
