import { Bell, Flag, Gavel } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'react-router';
import { useCountersLoaded, useDashboardLive } from './dashboard-live';
import { fetchOverview } from './overview/overview-api';
import { logError } from '../../shared/log';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../ui/DropdownMenu';
import { DASHBOARD_PATHS } from './dashboard-paths';

/**
 * The header's review bell (spec 2 "Admin dashboard": notifications): open reports and pending appeals, live from the
 * dashboard counters the system socket pushes to staff; each leads to its queue.
 */
export function ReviewBell() {
  const countersLoaded = useCountersLoaded();
  const counters = useDashboardLive((live) => live.counters);
  const known = counters !== null;

  // The pushes come only when something changes: the first figures are asked for.
  useEffect(() => {
    if (known) return;
    let live = true;
    fetchOverview()
      .then(({ counters, at }) => live && countersLoaded(counters, at))
      .catch((error: unknown) => logError('The review counts failed to load', error));
    return () => {
      live = false;
    };
  }, [known, countersLoaded]);

  const reports = counters?.openReports ?? 0;
  const appeals = counters?.openAppeals ?? 0;
  const waiting = reports + appeals;
  const summary = !known ? 'Review queue' : waiting === 0 ? 'Nothing to review' : `${waiting} waiting for review`;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger className="review-bell__trigger">
        <Bell size={20} aria-hidden="true" />
        {waiting > 0 && (
          <span className="review-bell__badge" aria-hidden="true">
            {waiting > 99 ? '99+' : waiting}
          </span>
        )}
        <span className="visually-hidden">{summary}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent className="review-bell__menu">
        <DropdownMenuLabel>{summary}</DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild icon={<Flag size={18} />}>
          <Link to={DASHBOARD_PATHS.reports}>
            Open reports <span className="review-bell__count">{known ? reports : '–'}</span>
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild icon={<Gavel size={18} />}>
          <Link to={DASHBOARD_PATHS.appeals}>
            Pending appeals <span className="review-bell__count">{known ? appeals : '–'}</span>
          </Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
