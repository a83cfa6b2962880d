import { checkHealth, type HealthCheckResult } from '../features/system/health-client';
import { openSystemSocket, type SystemSocketConnection } from '../features/system/system-socket';

/**
 * Everything the sagas reach outside the store: the network, the socket and the clock. Passed in as inputs
 * so a test can answer with fakes and a fixed time.
 */
export interface AppServices {
  checkHealth: () => Promise<HealthCheckResult>;
  openSystemSocket: () => SystemSocketConnection;
  now: () => number;
}

export const browserServices: AppServices = {
  checkHealth: () => checkHealth(),
  openSystemSocket,
  now: () => Date.now(),
};
