import { useAppSelector } from '../../app/hooks';
import { selectHealth, selectSocket } from './system.selectors';
import type { HealthStatus } from './system.slice';

// Texts of the admin System Log badge (spec 2), reused so the product says it one way everywhere.
export const SERVER_STATUS_TEXT: Record<HealthStatus, string> = {
  checking: 'Checking...',
  up: 'Server Operational',
  down: 'Server Down',
};

export function ServerStatusPill() {
  const health = useAppSelector(selectHealth);
  const socket = useAppSelector(selectSocket);
  const showLatency = socket.status === 'connected' && socket.latencyMs !== null;
  return (
    <p className={`status-pill status-pill--${health.status}`}>
      <span className="status-pill__dot" aria-hidden="true" />
      {/* Only a change of status is announced; the round trip changes every ping and would be noise. */}
      <span className="status-pill__text" role="status" aria-live="polite">
        {SERVER_STATUS_TEXT[health.status]}
      </span>
      {showLatency && (
        <span className="status-pill__latency" title="Realtime round trip to the server" aria-hidden="true">
          {socket.latencyMs} ms
        </span>
      )}
    </p>
  );
}
