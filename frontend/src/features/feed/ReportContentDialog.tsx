import {
  REPORT_DETAILS_MAX_LENGTH,
  REPORT_REASONS,
  type ReportedContentKind,
  type ReportReason,
} from '@serendip/proto';
import { useState } from 'react';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/Dialog';
import { Textarea } from '../../ui/Textarea';
import { REASON_LABELS, REPORT_TEXTS } from '../reports/report-texts';
import { SelectField } from '../reports/SelectField';
import type { FeedApi } from './feed-api';
import { feedApi } from './feed-api';
import { failureText } from './feed-texts';
import '../reports/reports.css';

const REASON_OPTIONS = (Object.keys(REPORT_REASONS) as ReportReason[]).map((reason) => ({
  value: reason,
  label: REASON_LABELS[reason],
}));

export interface ReportedContent {
  kind: ReportedContentKind;
  id: string;
  /** Whose words, for the dialog's text. */
  authorName: string;
}

/**
 * Reports a post, comment or reply into the moderation queue (MODERATION_PATHS.reportContent): a reason (spec 8:
 * 'Please provide a reason for the report.' when none), optional details; the server finds who wrote it and keeps the
 * words with the report. Spec 8's texts for the outcome.
 */
export function ReportContentDialog({
  content,
  onClose,
  api = feedApi,
}: {
  content: ReportedContent;
  onClose: () => void;
  api?: Pick<FeedApi, 'reportContent'>;
}) {
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async () => {
    if (!reason) return setError(REPORT_TEXTS.reasonRequired);
    setError(null);
    setSending(true);
    try {
      await api.reportContent({
        kind: content.kind,
        id: content.id,
        reason,
        ...(details.trim() ? { details: details.trim() } : {}),
      });
      notify.success(REPORT_TEXTS.submitted);
      onClose();
    } catch (failure) {
      logError('Content report failed', failure);
      notify.error(failureText(failure, REPORT_TEXTS.submitFailed));
      setSending(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        size="sm"
        title={`Report ${content.kind}`}
        description={`Tell us what is wrong with this ${content.kind} by ${content.authorName}. A moderator reviews it; they are not told who reported it.`}
      >
        <form
          className="feed-report"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <SelectField
            label="Reason"
            value={reason}
            options={REASON_OPTIONS}
            placeholder={REPORT_TEXTS.reasonPlaceholder}
            error={error ?? undefined}
            disabled={sending}
            onChange={(value) => setReason(value as ReportReason)}
          />
          <Textarea
            label="Details (optional)"
            rows={3}
            maxLength={REPORT_DETAILS_MAX_LENGTH}
            value={details}
            disabled={sending}
            onChange={(event) => setDetails(event.target.value)}
          />
          <DialogFooter>
            <Button variant="quiet" disabled={sending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" busy={sending}>
              Submit report
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
