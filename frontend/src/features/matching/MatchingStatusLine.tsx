import { useAppSelector } from '../../app/hooks';
import { selectMatching } from './matching.selectors';

/** The connection sub-state's message, announced politely (spec 3 "Match state"). */
export function MatchingStatusLine() {
  const { message, status, partnerReconnecting } = useAppSelector(selectMatching);
  // While the partner reconnects, the notice over the video says so: 'Connected' would not be true.
  const connected = status === 'connected' && !partnerReconnecting ? 'Connected' : '';
  const text = message ?? (status === 'searching' ? 'Searching…' : connected);
  return (
    <p className="match-status" role="status">
      {text}
    </p>
  );
}
