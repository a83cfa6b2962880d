import { type DashReport, MODERATION_NOTE_MAX_LENGTH } from '@serendip/proto';
import { type FormEvent, useState } from 'react';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { notify } from '../../../shared/toasts/notify';
import { Button, Dialog, DialogClose, DialogContent, DialogFooter, Textarea } from '../../../ui';
import { resolveReport } from './dash-moderation-api';

export type ReviewOutcome = 'dismissed' | 'false';

export const REVIEW_TEXTS = {
  falseNoteMissing: 'Say why the report is false: it counts against the reporter.',
} as const;

const LOOK = {
  dismissed: {
    title: (n: number) => `Dismiss report #${n}`,
    description: 'Nothing against the community guidelines: the report closes without a penalty.',
    label: 'Note (optional)',
    hint: 'For the staff who read the trail.',
    confirm: 'Dismiss report',
    done: (n: number) => `Report #${n} dismissed.`,
  },
  false: {
    title: (n: number) => `Mark report #${n} false`,
    description: 'A made-up report counts against the reporter (community guidelines).',
    label: 'Why is it false? (required)',
    hint: 'Say what shows it: the reporter is judged by it.',
    confirm: 'Mark false',
    done: (n: number) => `Report #${n} marked false.`,
  },
} as const;

/**
 * Dismissing a report or marking it false (POST /api/admin/reports/:id/resolve): a note is optional for a dismissal
 * and required for a false report, which counts against the reporter (the server refuses one without it). The dialog
 * stays open with the server's word when it refuses; it closes with a toast when the review is in.
 */
export function ReviewDialog({
  report,
  outcome,
  onOpenChange,
  onReviewed,
}: {
  report: Pick<DashReport, '_id' | 'number'>;
  outcome: ReviewOutcome;
  onOpenChange: (open: boolean) => void;
  onReviewed: () => void;
}) {
  const look = LOOK[outcome];
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    const text = note.trim();
    if (outcome === 'false' && !text) return setError(REVIEW_TEXTS.falseNoteMissing);
    setSending(true);
    try {
      await resolveReport(report._id, outcome, text);
      notify.success(look.done(report.number));
      onReviewed();
    } catch (failure) {
      logError('Report review failed', failure);
      setError(isHttpError(failure) ? failure.message : `Report #${report.number} could not be reviewed. Try again.`);
      setSending(false);
    }
  }

  return (
    <Dialog open onOpenChange={onOpenChange}>
      <DialogContent title={look.title(report.number)} description={look.description} size="sm">
        <form className="dash-review" onSubmit={submit} noValidate>
          <Textarea
            label={look.label}
            hint={look.hint}
            rows={3}
            maxLength={MODERATION_NOTE_MAX_LENGTH}
            required={outcome === 'false'}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            error={error ?? undefined}
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="quiet" type="button">
                Cancel
              </Button>
            </DialogClose>
            <Button variant={outcome === 'false' ? 'danger' : 'primary'} type="submit" disabled={sending}>
              {look.confirm}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
