import { REMOVAL_REASON_MAX_LENGTH } from '@serendip/proto';
import { useState } from 'react';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/Dialog';
import { Textarea } from '../../ui/Textarea';
import { type FeedApi, feedApi } from './feed-api';
import { failureText } from './feed-texts';

export interface RemovedContent {
  kind: 'comment' | 'reply';
  id: string;
  authorName: string;
}

/**
 * Staff take a comment or reply down (FEED_PATHS.remove) with the reason its author is shown; it goes from every page
 * (commentDeleted / replyDeleted). `onRemoved` runs once the server took it.
 */
export function RemoveContentDialog({
  content,
  onClose,
  onRemoved,
  api = feedApi,
}: {
  content: RemovedContent;
  onClose: () => void;
  onRemoved: () => void;
  api?: Pick<FeedApi, 'remove'>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const submit = async () => {
    if (!reason.trim()) return setError(`Say why the ${content.kind} is removed: ${content.authorName} is told.`);
    setError(null);
    setSending(true);
    try {
      await api.remove(content.id, reason.trim());
    } catch (failure) {
      logError('Removal failed', failure);
      notify.error(failureText(failure, `The ${content.kind} could not be removed.`));
      setSending(false);
      return;
    }
    notify.success(`The ${content.kind} was removed. ${content.authorName} is told why.`);
    onRemoved();
    onClose();
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        size="sm"
        title={`Remove ${content.kind}`}
        description={`It goes from every page. ${content.authorName} is shown your reason and may appeal.`}
      >
        <form
          className="feed-report"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <Textarea
            label="Reason"
            rows={2}
            maxLength={REMOVAL_REASON_MAX_LENGTH}
            value={reason}
            error={error ?? undefined}
            disabled={sending}
            onChange={(event) => setReason(event.target.value)}
          />
          <DialogFooter>
            <Button variant="quiet" disabled={sending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant="danger" busy={sending}>
              Remove
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
