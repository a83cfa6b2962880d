import {
  ADMIN_AUDIT_PATHS,
  API_PREFIX,
  type AuditStreamHistory,
  type AuditTrailPage,
  DASH_USER_PATHS,
  type DashUserDetails,
  type DashUserList,
  type Role,
} from '@serendip/proto';
import { get, post } from '../../../shared/http/http-client';

/** DASH_USER_PATHS carry the /api prefix; the HTTP client adds it itself. */
const underApi = (path: string) => path.slice(API_PREFIX.length + 1);

/** The user management calls (spec 2 /dashboard/user-management and view-details). */
export const dashUsersApi = {
  list: (search: string, page: number, signal?: AbortSignal) =>
    get<DashUserList>(underApi(DASH_USER_PATHS.list(search, page)), { signal }),
  details: (userId: string, signal?: AbortSignal) =>
    get<DashUserDetails>(underApi(DASH_USER_PATHS.details(userId)), { signal }),
  /** `asOf`: the first page's, so that the next pages hold still while reads (each recorded) add to the trail. */
  auditTrail: (userId: string, page: number, asOf?: string | null, signal?: AbortSignal) =>
    get<AuditTrailPage>(underApi(DASH_USER_PATHS.auditTrail(userId, page, asOf)), { signal }),
  /** Admins only: one stream's whole history, oldest first; `cursor` from the page before. */
  streamHistory: (stream: string, cursor?: string | null, signal?: AbortSignal) =>
    get<AuditStreamHistory>(underApi(ADMIN_AUDIT_PATHS.stream(stream, cursor)), { signal }),
  unban: (caseId: string, reason: string) =>
    post<{ message: string }>(underApi(DASH_USER_PATHS.unban(caseId)), { reason }),
  setRole: (userId: string, role: Role, reason: string) =>
    post<{ message: string }>(underApi(DASH_USER_PATHS.role(userId)), { role, reason }),
};
