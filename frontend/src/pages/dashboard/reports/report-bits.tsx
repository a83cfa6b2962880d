import type { DashPerson, DashReport, ReportSeverity, ReportStatus } from '@serendip/proto';
import { ImageOff, Images } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { SEVERITY_LABELS } from '../../../features/reports/report-texts';
import { Badge, Button, Dialog, DialogContent } from '../../../ui';
import { cx } from '../../../ui/cx';
import { DASHBOARD_PATHS } from '../dashboard-paths';
import './reports-page.css';

/** spec 2: severity high red, medium yellow, otherwise blue; the word says it too. */
export function SeverityBadge({ severity }: { severity: ReportSeverity }) {
  const tone = severity === 'high' ? 'danger' : severity === 'medium' ? 'pending' : 'neutral';
  return (
    <Badge tone={tone} className={cx('dash-severity', `dash-severity--${severity}`)}>
      {SEVERITY_LABELS[severity] ?? severity}
    </Badge>
  );
}

export const STATUS_LABELS: Record<ReportStatus, string> = {
  open: 'Open',
  dismissed: 'Dismissed',
  actioned: 'Actioned',
  false: 'False report',
};

export function StatusBadge({ status }: { status: ReportStatus }) {
  const tone = status === 'open' ? 'accent' : status === 'actioned' ? 'ok' : 'neutral';
  return <Badge tone={tone}>{STATUS_LABELS[status]}</Badge>;
}

/** spec 2: names link to the user's details page; a deleted account is named as erased. */
export function PersonLink({ person }: { person: DashPerson }) {
  if (person.erased) return <span className="dash-muted">Erased account</span>;
  return <Link to={DASHBOARD_PATHS.userDetails(person._id)}>{person.firstName?.trim() || 'Unnamed user'}</Link>;
}

/** A picture that may be gone (its subject deleted the account, or retention removed it). */
function Evidence({ src, alt }: { src: string; alt: string }) {
  const [failed, setFailed] = useState(false);
  if (failed) {
    return (
      <p className="dash-evidence__missing">
        <ImageOff aria-hidden /> This picture is no longer available.
      </p>
    );
  }
  return <img src={src} alt={alt} onError={() => setFailed(true)} />;
}

/**
 * spec 2 "Clicking a screenshot enlarges it": the reporter's screenshot, enlarged, beside the media server's own
 * frame of the reported side (which the reporter cannot forge). Every look is recorded by the server.
 */
export function EvidenceDialog({
  report,
  open,
  onOpenChange,
}: {
  report: DashReport;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title={`Evidence for report #${report.number}`} size="lg">
        <div className="dash-evidence">
          <figure>
            {report.screenshot ? (
              <Evidence src={report.screenshot} alt={`Reporter's screenshot, report #${report.number}`} />
            ) : (
              <p className="dash-evidence__missing">The reporter sent no screenshot.</p>
            )}
            <figcaption>Reporter's screenshot</figcaption>
          </figure>
          <figure>
            {report.serverSnapshot ? (
              <Evidence src={report.serverSnapshot} alt={`Server snapshot, report #${report.number}`} />
            ) : (
              <p className="dash-evidence__missing">No server snapshot: the call was not relayed by the server.</p>
            )}
            <figcaption>Server snapshot</figcaption>
          </figure>
        </div>
        {report.details ? (
          <p className="dash-evidence__details">
            <strong>Reporter's words:</strong> {report.details}
          </p>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The table's Screenshot cell: a button saying how many pictures there are. Nothing is loaded until a staff member
 * clicks it: the server records every look at evidence (spec 6 Admin), so a page view must not count as a look at
 * every picture on it. The dialog loads the pictures.
 */
/** The Type column: a call, or what was written in the feed. */
export const REPORT_TYPE_LABELS: Record<DashReport['type'], string> = {
  videosession: 'Video session',
  post: 'Post',
  comment: 'Comment',
  reply: 'Reply',
};

/** A report of something written: its words as kept with the report, and a link to the post it is under. */
export function ReportedWords({ content }: { content: NonNullable<DashReport['content']> }) {
  return (
    <span className="dash-reported-words">
      {content.text !== undefined ? <q>{content.text}</q> : <span className="dash-muted">Erased with the account</span>}{' '}
      <a href={`/feed/post/${content.postId}`} target="_blank" rel="noreferrer">
        Open post
      </a>
    </span>
  );
}

export function EvidenceThumbs({ report }: { report: DashReport }) {
  const [open, setOpen] = useState(false);
  const count = (report.screenshot ? 1 : 0) + (report.serverSnapshot ? 1 : 0);
  const words = report.content ? <ReportedWords content={report.content} /> : null;
  if (count === 0) return words ?? <span className="dash-muted">None</span>;
  return (
    <>
      {words}
      <Button
        variant="quiet"
        size="sm"
        className="dash-evidence-button"
        onClick={() => setOpen(true)}
        aria-label={`Enlarge the evidence of report #${report.number}`}
      >
        <Images aria-hidden />
        <span>View ({count})</span>
      </Button>
      {open ? <EvidenceDialog report={report} open={open} onOpenChange={setOpen} /> : null}
    </>
  );
}

/** Previous / Next with "Page x of y". */
export function Pager({
  page,
  totalPages,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  onPage: (page: number) => void;
  label: string;
}) {
  return (
    <nav className="dash-pager" aria-label={label}>
      <Button variant="quiet" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </Button>
      <span>
        Page {page} of {totalPages}
      </span>
      <Button variant="quiet" size="sm" disabled={page >= totalPages} onClick={() => onPage(page + 1)}>
        Next
      </Button>
    </nav>
  );
}

/** 'Nov 26, 2026, 3:04 PM' in the reader's time zone. */
export function formatReportDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return date
    .toLocaleString('en-US', { month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit' })
    .replace(/\u202f/g, ' ');
}
