import { useAppSelector } from '../../app/hooks';
import { onlineCountText } from './online-count';
import './online-count.css';

/**
 * How many people are online now, live from the system socket's onlineCount (pushed to every signed-in page when it
 * changes). Shows nothing until the server has said, nor while the socket is down.
 */
export function OnlineCount({ className }: { className?: string }) {
  const count = useAppSelector((state) => state.system.online.count);
  // The viewer is online, so 0 is a count taken before their own page was counted: wait for the next.
  if (count === null || count === 0) return null;
  return (
    <p className={className ? `online-count ${className}` : 'online-count'} role="status" data-testid="online-count">
      <span className="online-count__dot" aria-hidden="true" />
      {onlineCountText(count)}
    </p>
  );
}
