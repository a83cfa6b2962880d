import type { IdentityIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';

/**
 * What identity tells others: that a session ended, whatever ended it (a reused refresh token ends it too), that
 * an account was deleted, and that what an account may reach changed (its role, or two-factor login, which staff
 * need). Ids and the reason only; where and from what device, and why a role changed, stay in identity.
 */
export function identityIntegrationEvents(recorded: RecordedEvent): IdentityIntegrationEvent[] {
  const base = { id: recorded.id, context: 'identity', occurredAt: recorded.metadata.occurredAt };
  const data = recorded.data as { sessionId: string; userId: string; reason?: string };
  switch (recorded.type) {
    case 'SessionEnded':
      return [{ ...base, type: 'SessionEnded', data: { ...ids(data), reason: data.reason ?? 'ended' } }];
    case 'SessionCompromised':
      return [{ ...base, type: 'SessionEnded', data: { ...ids(data), reason: 'refresh token reused' } }];
    case 'AccountDeleted':
      return [{ ...base, type: 'AccountDeleted', data: { userId: data.userId } }];
    case 'RoleGranted':
    case 'RoleRevoked':
    case 'TwoFactorEnabled':
    case 'TwoFactorDisabled':
      return [{ ...base, type: 'AccessChanged', data: { userId: data.userId } }];
    default:
      return [];
  }
}

const ids = (data: { sessionId: string; userId: string }) => ({ sessionId: data.sessionId, userId: data.userId });
