import { AlertDialog } from 'radix-ui';
import { REPORT_TEXTS } from './report-texts';

interface ConfirmCloseProps {
  open: boolean;
  onCancel: () => void;
  onConfirm: () => void;
}

/** spec 2: closing a report with data entered asks first. Escape or Cancel keeps the report open. */
export function ConfirmClose({ open, onCancel, onConfirm }: ConfirmCloseProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !next && onCancel()}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="ui-dialog__overlay report-confirm__overlay">
          <AlertDialog.Content className="ui-dialog ui-dialog--sm report-confirm">
            <header className="ui-dialog__header">
              <AlertDialog.Title className="ui-dialog__title">{REPORT_TEXTS.confirmCloseTitle}</AlertDialog.Title>
              <AlertDialog.Description className="ui-dialog__description">
                {REPORT_TEXTS.confirmCloseText}
              </AlertDialog.Description>
            </header>
            <div className="ui-dialog__footer">
              <AlertDialog.Cancel className="button button--quiet">Cancel</AlertDialog.Cancel>
              <AlertDialog.Action className="button button--danger" onClick={onConfirm}>
                {REPORT_TEXTS.confirmCloseYes}
              </AlertDialog.Action>
            </div>
          </AlertDialog.Content>
        </AlertDialog.Overlay>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
