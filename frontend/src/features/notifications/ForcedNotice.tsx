import { AlertDialog } from 'radix-ui';
import type { ReactNode } from 'react';
import './forced-notice.css';

interface ForcedNoticeProps {
  title: string;
  children: ReactNode;
  /** The buttons; the one that confirms is an AlertDialog.Action so it closes the notice. */
  actions: ReactNode;
}

/**
 * A forced-open notification (spec 2 "Global overlays", spec 4 "Notifications"): it covers the app until the user
 * confirms it, so Escape and clicks outside do nothing (an alert dialog, not a dismissible one).
 */
export function ForcedNotice({ title, children, actions }: ForcedNoticeProps) {
  return (
    <AlertDialog.Root open>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="forced-notice__backdrop" />
        <AlertDialog.Content className="forced-notice">
          <AlertDialog.Title className="forced-notice__title">{title}</AlertDialog.Title>
          {children}
          <div className="forced-notice__actions">{actions}</div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
