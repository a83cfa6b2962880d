import { Button } from '../../ui/Button';
import { Dialog, DialogContent, DialogFooter } from '../../ui/Dialog';
import { AppealBox, useAppealBox } from './AppealBox';

/**
 * A removed comment's or reply's author appeals it from the post's page (after OK on its notice): the notice's own
 * explanation box. `onAppeal` sends it and says whether it was taken (then the dialog closes).
 */
export function AppealRemovalDialog({
  kind,
  onAppeal,
  onClose,
}: {
  kind: 'comment' | 'reply';
  onAppeal: (explanation: string) => Promise<boolean>;
  onClose: () => void;
}) {
  const box = useAppealBox(async (explanation) => {
    const taken = await onAppeal(explanation);
    if (taken) onClose();
    return taken;
  });
  return (
    <Dialog open onOpenChange={(open) => !open && !box.sending && onClose()}>
      <DialogContent
        size="sm"
        title={`Appeal the removal of your ${kind}`}
        description="If it was a mistake, say why it should be shown again. You can appeal once."
      >
        <form
          className="feed-report"
          onSubmit={(event) => {
            event.preventDefault();
            void box.send();
          }}
        >
          <AppealBox box={box} />
          <DialogFooter>
            <Button variant="quiet" disabled={box.sending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" busy={box.sending}>
              Submit Appeal
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
