import { useAppSelector } from '../../app/hooks';
import { selectHealth, selectSocket } from './system.selectors';
import type { HealthStatus } from './system.slice';

// Texts of the admin System Log badge (spec 2), reused so the product says it one way everywhere.
const STATUS_TEXT: Record<HealthStatus, string> = {
  checking: 'Checking...',
  up: 'Server Operational',
  down: 'Server Down',
};

export function ServerStatusPill() {
  const health = useAppSelector(selectHealth);
  const socket = useAppSelector(selectSocket);
  const showLatency = socket.status === 'connected' && socket.latencyMs !== null;
  return (
    <p className={`status-pill status-pill--${health.status}`} role="status" aria-live="polite">
      <span className="status-pill__dot" aria-hidden="true" />
      <span className="status-pill__text">{STATUS_TEXT[health.status]}</span>
      {showLatency && (
        <span className="status-pill__latency" title="Realtime round trip to the server">
          {socket.latencyMs} ms
        </span>
      )}
    </p>
  );
}
