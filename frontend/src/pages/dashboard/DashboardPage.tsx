import { ComingSoon } from '../../shared/ui/ComingSoon';

/** `/dashboard` for admins (spec 6). TODO: overview, reports, server logs, user management. */
export function DashboardPage() {
  return (
    <ComingSoon page="Dashboard" title="The admin dashboard is coming soon">
      Reports, server logs and user management will be here.
    </ComingSoon>
  );
}
