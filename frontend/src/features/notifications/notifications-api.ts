import { NOTIFICATION_KINDS, NOTIFICATION_PATHS, type NotificationView } from '@serendip/proto';
import { API_BASE_PATH, type HttpClient, httpClient } from '../../shared/http/http-client';
import { UnexpectedAnswerError } from '../auth/auth-api';

/** One page of GET /api/notifications/{userId}?page=n (NOTIFICATION_PATHS.list): newest first. */
export interface NotificationPage {
  items: NotificationView[];
  page: number;
  totalPages: number;
  unreadCount: number;
}

/** spec 7 notification calls; every one is for the signed-in user's own notifications. */
export interface NotificationsApi {
  list(userId: string, page: number): Promise<NotificationPage>;
  /** The forced-open ones not yet confirmed, oldest first. */
  forceOpen(userId: string): Promise<NotificationView[]>;
  markForceAsRead(id: string): Promise<void>;
  markRead(id: string): Promise<void>;
  markAllRead(): Promise<void>;
}

type Shape = Record<string, unknown>;
const isObject = (value: unknown): value is Shape => typeof value === 'object' && value !== null;
const isString = (value: unknown): value is string => typeof value === 'string';

/** The `NotificationView` contract (proto/src/http/notifications.ts); a push or answer that is not one is dropped. */
export function isNotificationView(value: unknown): value is NotificationView {
  if (!isObject(value)) return false;
  const { _id, kind, title, description, AdminAnnouncement, forceOpen, read, createdAt, link, details } = value;
  return (
    isString(_id) &&
    _id.length > 0 &&
    (NOTIFICATION_KINDS as readonly unknown[]).includes(kind) &&
    isString(title) &&
    isString(description) &&
    (AdminAnnouncement === undefined || isString(AdminAnnouncement)) &&
    typeof forceOpen === 'boolean' &&
    typeof read === 'boolean' &&
    isString(createdAt) &&
    !Number.isNaN(Date.parse(createdAt)) &&
    (link === undefined || isString(link)) &&
    (details === undefined || isObject(details))
  );
}

/** proto paths carry the /api prefix; the HTTP module adds it itself. */
function underApi(path: string): string {
  if (!path.startsWith(`${API_BASE_PATH}/`)) throw new Error(`${path} is not under ${API_BASE_PATH}`);
  return path.slice(API_BASE_PATH.length);
}

const headerCount = (headers: Headers, name: string, fallback: number) => {
  const value = Number(headers.get(name));
  return headers.has(name) && Number.isInteger(value) && value >= 0 ? value : fallback;
};

export function createNotificationsApi(http: HttpClient): NotificationsApi {
  return {
    async list(userId, page) {
      const path = underApi(NOTIFICATION_PATHS.list(userId));
      const { body, headers } = await http.getWithHeaders<unknown>(`${path}?page=${page}`);
      if (!Array.isArray(body) || !body.every(isNotificationView)) throw new UnexpectedAnswerError(path);
      return {
        items: body,
        page,
        totalPages: headerCount(headers, 'X-Total-Pages', page),
        unreadCount: headerCount(headers, 'X-Unread-Count', body.filter((n) => !n.read).length),
      };
    },
    async forceOpen(userId) {
      const path = underApi(NOTIFICATION_PATHS.forceOpen(userId));
      const body = await http.get<unknown>(path);
      if (!Array.isArray(body) || !body.every(isNotificationView)) throw new UnexpectedAnswerError(path);
      return body;
    },
    async markForceAsRead(id) {
      await http.put<unknown>(underApi(NOTIFICATION_PATHS.markForceAsRead(id)));
    },
    async markRead(id) {
      await http.put<unknown>(underApi(NOTIFICATION_PATHS.markRead(id)));
    },
    async markAllRead() {
      await http.put<unknown>(underApi(NOTIFICATION_PATHS.markAllRead));
    },
  };
}

/** On the app's one HTTP client, so these share its session cookies and its refresh on 401. */
export const notificationsApi = createNotificationsApi(httpClient);
