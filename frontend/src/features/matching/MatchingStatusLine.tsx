import { useAppSelector } from '../../app/hooks';
import { selectMatching } from './matching.selectors';

/** The connection sub-state's message, announced politely (spec 3 "Match state"). */
export function MatchingStatusLine() {
  const { message, status } = useAppSelector(selectMatching);
  const text = message ?? (status === 'searching' ? 'Searching…' : status === 'connected' ? 'Connected' : '');
  return (
    <p className="match-status" role="status">
      {text}
    </p>
  );
}
