import { Flag as ReportIcon } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { selectCurrentUser } from '../auth/session.selectors';
import { pendingDraftTarget } from './report-draft';
import { reportCallPath } from './report-paths';

/**
 * A report left unsent (the page was reloaded or closed with the dialog open) is kept in this browser (spec 3): the
 * wizard says so and leads back to it, instead of leaving it to be found in Recent calls.
 */
export function UnsentReportNotice() {
  const reporterId = useAppSelector(selectCurrentUser)?._id ?? null;
  const [target] = useState(() => (reporterId ? pendingDraftTarget({ reporterId, now: Date.now() }) : null));
  if (!target) return null;
  return (
    <p className="match-wizard__confirm" role="status">
      <ReportIcon aria-hidden="true" size={16} /> Your report about {target.partnerName} is not sent yet.{' '}
      <Link to={reportCallPath(target.matchId)}>Continue report</Link>
    </p>
  );
}
