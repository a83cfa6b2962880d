import {
  type DashReport,
  REPORT_SEVERITIES,
  REPORT_STATUSES,
  type ReportSeverity,
  type ReportStatus,
} from '@serendip/proto';
import { useEffect, useMemo, useState } from 'react';
import { useAppSelector } from '../../../app/hooks';
import { selectCurrentUser } from '../../../features/auth/session.selectors';
import { BanDialog } from '../BanDialog';
import { useDashboardLive } from '../dashboard-live';
import { REASON_LABELS, SEVERITY_LABELS } from '../../../features/reports/report-texts';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Button, Spinner } from '../../../ui';
import { fetchReports, type ReportFilters, type ReportsPageAnswer } from './dash-moderation-api';
import {
  EvidenceThumbs,
  REPORT_TYPE_LABELS,
  formatReportDate,
  Pager,
  PersonLink,
  SeverityBadge,
  STATUS_LABELS,
  StatusBadge,
} from './report-bits';
import { type ReviewOutcome, ReviewDialog } from './ReviewDialog';
import './reports-page.css';

export const REPORT_REVIEW_TEXTS = {
  aboutYou: 'About you: another staff member reviews it.',
  filedByYou: 'Filed by you: another staff member reviews it.',
  notYours: 'Another staff member reviews it.',
} as const;

/**
 * Why the viewer may not review this report, or null: nobody reviews a report about themselves or one they filed (the
 * server refuses it). A listed report says so itself (canReview); a pushed one, heard by all staff alike, does not.
 */
function reviewBar(report: DashReport, viewerId: string | undefined): string | null {
  if (report.reportedUser._id === viewerId) return REPORT_REVIEW_TEXTS.aboutYou;
  if (report.reportedByWho._id === viewerId) return REPORT_REVIEW_TEXTS.filedByYou;
  return report.canReview === false ? REPORT_REVIEW_TEXTS.notYours : null;
}

type Loaded = { key: string; answer: ReportsPageAnswer } | { key: string; failed: true };

const matches = (filters: ReportFilters) => (r: DashReport) =>
  (filters.status === 'all' || r.status === filters.status) &&
  (filters.severity === 'all' || r.severity === filters.severity);

/**
 * spec 2 "Reports page": the table (#, Type, Reason, Severity, Reported By, Reported User, Screenshot, Date) with the
 * review status and actions, filters and paging; newest first. New reports appear live (the system socket's
 * reportFiled, staff only), and one another moderator reviewed shows its outcome at once (reportResolved). Dismiss and
 * Mark false open a small dialog (a note, required to mark false); a report about the viewer or filed by them offers no
 * action, only who reviews it. At 1440 px the row fits without sideways scrolling; on a phone each row is a card.
 * spec 8: a failure to load is only logged (no toast); the page says it could not load and offers to try again.
 */
export function ReportsPage() {
  useDocumentTitle('Reports');
  const [filters, setFilters] = useState<ReportFilters>({ status: 'open', severity: 'all' });
  const [page, setPage] = useState(1);
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [mine, setMine] = useState<Record<string, DashReport>>({});
  const viewerId = useAppSelector(selectCurrentUser)?._id;
  const arrivals = useDashboardLive((live) => live.arrivals);
  const reviewed = useDashboardLive((live) => live.reviewed);
  const key = `${page}|${filters.status}|${filters.severity}|${attempt}`;

  useEffect(() => {
    const controller = new AbortController();
    fetchReports(page, filters, controller.signal).then(
      (answer) => setLoaded({ key, answer }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        logError('Reports load failure', error);
        setLoaded({ key, failed: true });
      },
    );
    return () => controller.abort();
    // `key` names every input of the request.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  const current = loaded?.key === key ? loaded : null;
  const answer = current && 'answer' in current ? current.answer : null;

  const rows = useMemo(() => {
    if (!answer) return [];
    const listed = new Set(answer.reports.map((r) => r._id));
    const newest = answer.reports[0]?.createdAt ?? '';
    // Live arrivals belong on the first page, above what it loaded.
    const fresh =
      page === 1 ? arrivals.filter((r) => !listed.has(r._id) && r.createdAt >= newest && matches(filters)(r)) : [];
    return [...fresh, ...answer.reports].map((r) => mine[r._id] ?? reviewed[r._id] ?? r);
  }, [answer, arrivals, reviewed, mine, page, filters]);
  const freshCount = answer ? rows.length - answer.reports.length : 0;

  function changeFilters(next: Partial<ReportFilters>) {
    setFilters((f) => ({ ...f, ...next }));
    setPage(1);
  }

  function reviewedHere(report: DashReport, status: ReportStatus, caseId: string | null = report.caseId) {
    setMine((m) => ({ ...m, [report._id]: { ...report, status, caseId } }));
  }

  return (
    <section className="dash-page dash-reports">
      <div className="dash-page__head">
        <h1>Reports</h1>
        <div className="dash-filters" role="group" aria-label="Filters">
          <label className="dash-select">
            <span>Status</span>
            <select
              value={filters.status}
              onChange={(e) => changeFilters({ status: e.target.value as ReportFilters['status'] })}
            >
              <option value="all">All</option>
              {REPORT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {STATUS_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
          <label className="dash-select">
            <span>Severity</span>
            <select
              value={filters.severity}
              onChange={(e) => changeFilters({ severity: e.target.value as ReportSeverity | 'all' })}
            >
              <option value="all">All</option>
              {REPORT_SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </select>
          </label>
        </div>
      </div>

      <p className="dash-visually-hidden" aria-live="polite">
        {freshCount > 0 ? `${freshCount} new report${freshCount === 1 ? '' : 's'}` : ''}
      </p>

      {!current ? (
        <div className="dash-card dash-state">
          <Spinner label="Loading reports" />
        </div>
      ) : !answer ? (
        <div className="dash-card dash-state" role="alert">
          <p>The reports could not be loaded.</p>
          <Button variant="quiet" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </Button>
        </div>
      ) : rows.length === 0 ? (
        <div className="dash-card dash-state">
          <p>{filters.status === 'open' ? 'No open reports. All caught up.' : 'No reports match these filters.'}</p>
        </div>
      ) : (
        <div className="dash-card">
          <div className="dash-table-wrap">
            <table className="dash-table dash-reports__table">
              <caption className="dash-visually-hidden">Reports, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Type</th>
                  <th scope="col">Reason</th>
                  <th scope="col">Severity</th>
                  <th scope="col">Reported By</th>
                  <th scope="col">Reported User</th>
                  <th scope="col">Screenshot</th>
                  <th scope="col">Date</th>
                  <th scope="col">Status</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((report) => (
                  <ReportRow
                    key={report._id}
                    report={report}
                    fresh={!answer.reports.some((r) => r._id === report._id)}
                    bar={reviewBar(report, viewerId)}
                    onReviewed={(outcome) => reviewedHere(report, outcome)}
                    onBanned={(caseId) => {
                      reviewedHere(report, 'actioned', caseId);
                      notify.success(`User banned; report #${report.number} actioned.`);
                    }}
                  />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            label="Report pages"
            page={page}
            totalPages={answer.totalPages}
            onPage={(next) => setPage(Math.max(1, next))}
          />
        </div>
      )}
    </section>
  );
}

function ReportRow({
  report,
  fresh,
  bar,
  onReviewed,
  onBanned,
}: {
  report: DashReport;
  fresh: boolean;
  /** Why the viewer may not review it (no actions then), or null. */
  bar: string | null;
  onReviewed: (outcome: ReviewOutcome) => void;
  onBanned: (caseId: string) => void;
}) {
  const [reviewing, setReviewing] = useState<ReviewOutcome | null>(null);
  const [banning, setBanning] = useState(false);
  const open = report.status === 'open';
  return (
    <tr className={fresh ? 'dash-row--new' : undefined} aria-label={`Report #${report.number}`}>
      <td data-label="#">{report.number}</td>
      <td data-label="Type" className="dash-cell--wrap">
        {REPORT_TYPE_LABELS[report.type] ?? report.type}
      </td>
      <td data-label="Reason" className="dash-cell--wrap">
        {REASON_LABELS[report.reason] ?? report.reason}
      </td>
      <td data-label="Severity">
        <SeverityBadge severity={report.severity} />
      </td>
      <td data-label="Reported By" className="dash-cell--wrap">
        <PersonLink person={report.reportedByWho} />
      </td>
      <td data-label="Reported User" className="dash-cell--wrap">
        <PersonLink person={report.reportedUser} />
      </td>
      <td data-label="Screenshot">
        <EvidenceThumbs report={report} />
      </td>
      <td data-label="Date" className="dash-cell--date">
        <time dateTime={report.createdAt}>{formatReportDate(report.createdAt)}</time>
      </td>
      <td data-label="Status">
        <StatusBadge status={report.status} />
      </td>
      <td data-label="Actions" className="dash-cell--actions">
        {!open ? (
          <span className="dash-muted">Reviewed</span>
        ) : bar ? (
          <span className="dash-muted dash-review-bar">{bar}</span>
        ) : (
          <div className="dash-actions dash-actions--report">
            <Button size="sm" variant="quiet" onClick={() => setReviewing('dismissed')}>
              Dismiss
            </Button>
            <Button size="sm" variant="quiet" onClick={() => setReviewing('false')}>
              Mark false
            </Button>
            <Button
              size="sm"
              variant="danger"
              disabled={report.reportedUser.erased === true}
              onClick={() => setBanning(true)}
            >
              Ban
            </Button>
          </div>
        )}
        {reviewing ? (
          <ReviewDialog
            report={report}
            outcome={reviewing}
            onOpenChange={(isOpen) => setReviewing(isOpen ? reviewing : null)}
            onReviewed={() => {
              setReviewing(null);
              onReviewed(reviewing);
            }}
          />
        ) : null}
        {banning ? (
          <BanDialog
            target={{
              userId: report.reportedUser._id,
              name: report.reportedUser.erased ? 'an erased account' : report.reportedUser.firstName || 'this user',
            }}
            report={report}
            open={banning}
            onOpenChange={setBanning}
            onBanned={(caseId) => {
              setBanning(false);
              onBanned(caseId);
            }}
          />
        ) : null}
      </td>
    </tr>
  );
}
