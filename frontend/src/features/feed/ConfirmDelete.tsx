import { AlertDialog } from 'radix-ui';

interface ConfirmDeleteProps {
  title: string;
  text: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** Asks before something is deleted for everyone; Escape or Cancel keeps it. */
export function ConfirmDelete({ title, text, onCancel, onConfirm }: ConfirmDeleteProps) {
  return (
    <AlertDialog.Root open onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="ui-dialog__overlay">
          <AlertDialog.Content className="ui-dialog ui-dialog--sm feed-confirm">
            <header className="ui-dialog__header">
              <AlertDialog.Title className="ui-dialog__title">{title}</AlertDialog.Title>
              <AlertDialog.Description className="ui-dialog__description">{text}</AlertDialog.Description>
            </header>
            <div className="ui-dialog__footer">
              <AlertDialog.Cancel className="button button--quiet">Cancel</AlertDialog.Cancel>
              <AlertDialog.Action className="button button--danger" onClick={onConfirm}>
                Delete
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Overlay>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
