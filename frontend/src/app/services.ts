import { type AuthApi, authApi } from '../features/auth/auth-api';
import { localSessionHint, type SessionHint } from '../features/auth/session-hint';
import { checkHealth, type HealthCheckResult } from '../features/system/health-client';
import { browserMatchingServices, type MatchingServices } from '../features/matching/matching-services';
import type { NotificationServices } from '../features/notifications/notifications.saga';
import { type HandshakeQuery, openSystemSocket, type SystemSocketConnection } from '../features/system/system-socket';

/**
 * Everything the sagas reach outside the store: the network, the socket, storage, page loads and the clock. Passed
 * in as inputs so a test can answer with fakes and a fixed time.
 */
export interface AppServices {
  checkHealth: () => Promise<HealthCheckResult>;
  openSystemSocket: (query?: HandshakeQuery) => SystemSocketConnection | Promise<SystemSocketConnection>;
  auth: AuthApi;
  sessionHint: SessionHint;
  /** A full page load (spec 4: logout ends on /auth/login this way, dropping every piece of in-memory state). */
  loadPage: (path: string) => void;
  /** The page's own path and query, as the address bar shows it. */
  currentPath: () => string;
  now: () => number;
  /** The video match screen's socket, camera and peer connection, and its feedback call. */
  matching: MatchingServices;
  /** The notification calls and the sounds of live arrivals; the app's come with their chunk, after sign-in. */
  notifications?: NotificationServices;
}

export const browserServices: AppServices = {
  checkHealth: () => checkHealth(),
  openSystemSocket,
  auth: authApi,
  sessionHint: localSessionHint,
  loadPage: (path) => window.location.assign(path),
  currentPath: () => `${window.location.pathname}${window.location.search}`,
  now: () => Date.now(),
  matching: browserMatchingServices,
};
