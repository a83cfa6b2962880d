import type { IntegrationEvent } from './integration-event.js';

/** A backend process started (ops context); admins see starts and stops on the System Log page. */
export type ServiceStartedEvent = IntegrationEvent<'ServiceStarted', { instance: string; roles: string[] }>;
export type ServiceStoppedEvent = IntegrationEvent<'ServiceStopped', { instance: string; reason: string }>;
export type OpsIntegrationEvent = ServiceStartedEvent | ServiceStoppedEvent;
