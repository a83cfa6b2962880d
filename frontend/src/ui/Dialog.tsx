import { X } from 'lucide-react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { Button } from './Button';
import { cx } from './cx';
import './dialog.css';

/** Open state lives here: `open` + `onOpenChange` to control it (e.g. to confirm before closing). */
export const Dialog = DialogPrimitive.Root;
/** Usually `<DialogTrigger asChild><Button>…</Button></DialogTrigger>`; focus returns to it on close. */
export const DialogTrigger = DialogPrimitive.Trigger;
/** Closes the dialog; use asChild around a Button for Cancel / Done. */
export const DialogClose = DialogPrimitive.Close;

export type DialogSize = 'sm' | 'md' | 'lg';

export interface DialogContentProps extends Omit<ComponentPropsWithRef<typeof DialogPrimitive.Content>, 'title'> {
  /** Names the dialog (aria-labelledby). */
  title: ReactNode;
  /** Describes it (aria-describedby); leave out when the body speaks for itself. */
  description?: ReactNode;
  size?: DialogSize;
  /** The accessible name of the corner close button. */
  closeLabel?: string;
  /**
   * false for a notice the user must act on (spec 2: forced-open announcement, Comment Removed): no close button,
   * Escape and outside clicks do nothing, only the dialog's own buttons close it.
   */
  dismissible?: boolean;
}

/**
 * Where focus goes when the dialog opens: its first tabbable control (links left out, as radix does), else the
 * dialog itself, so keyboard focus is always inside it. preventScroll because a phone's sheet starts below the screen.
 */
function focusOnOpen(content: HTMLElement) {
  const candidates = [...content.querySelectorAll('*')].filter(
    (element): element is HTMLElement =>
      element instanceof HTMLElement &&
      element.tabIndex >= 0 &&
      element.tagName !== 'A' &&
      !(element instanceof HTMLInputElement && element.type === 'hidden') &&
      !element.matches(':disabled') &&
      element.closest('[hidden], [inert]') === null,
  );
  for (const candidate of [...candidates, content]) {
    candidate.focus({ preventScroll: true });
    if (document.activeElement === candidate || candidate.contains(document.activeElement)) {
      // radix selects a field's text on open; keep that.
      if (candidate instanceof HTMLInputElement) candidate.select();
      return;
    }
  }
}

/**
 * The modal itself, portalled to <body>: traps focus, closes on Escape and outside click, locks page scroll.
 * Below 768 px it is a full-width sheet rising from the bottom; it opens scrolled to its top, title in view.
 */
export function DialogContent({
  title,
  description,
  size = 'md',
  closeLabel = 'Close',
  dismissible = true,
  className,
  children,
  onEscapeKeyDown,
  onInteractOutside,
  onOpenAutoFocus,
  ...props
}: DialogContentProps) {
  return (
    <DialogPrimitive.Portal>
      {/* Content inside the overlay: the overlay scrolls a tall dialog and any click on it is outside. */}
      <DialogPrimitive.Overlay className="ui-dialog__overlay">
        <DialogPrimitive.Content
          className={cx('ui-dialog', `ui-dialog--${size}`, className)}
          // Without a description, say so: radix would otherwise point aria-describedby at nothing.
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
          {...props}
          onOpenAutoFocus={(event) => {
            onOpenAutoFocus?.(event);
            // A caller that prevents the default places focus itself.
            if (event.defaultPrevented || !(event.currentTarget instanceof HTMLElement)) return;
            event.preventDefault();
            const content = event.currentTarget;
            focusOnOpen(content);
            // NOTE: a control may pass focus on without preventScroll (radix tabs hand it to the open tab), and the
            // browser then scrolls the rising sheet to its end, hiding the title.
            const overlay = content.parentElement;
            if (overlay) overlay.scrollTop = 0;
            content.scrollTop = 0;
          }}
          onEscapeKeyDown={(event) => {
            onEscapeKeyDown?.(event);
            if (!dismissible) event.preventDefault();
          }}
          onInteractOutside={(event) => {
            onInteractOutside?.(event);
            if (!dismissible) event.preventDefault();
          }}
        >
          <header className="ui-dialog__header">
            <DialogPrimitive.Title className="ui-dialog__title">{title}</DialogPrimitive.Title>
            {description !== undefined && (
              <DialogPrimitive.Description className="ui-dialog__description">
                {description}
              </DialogPrimitive.Description>
            )}
          </header>
          {children}
          {dismissible && (
            <DialogPrimitive.Close asChild>
              <Button variant="ghost" size="sm" iconOnly className="ui-dialog__close" aria-label={closeLabel}>
                <X aria-hidden="true" focusable="false" />
              </Button>
            </DialogPrimitive.Close>
          )}
        </DialogPrimitive.Content>
      </DialogPrimitive.Overlay>
    </DialogPrimitive.Portal>
  );
}

/** The dialog's actions, end-aligned; on mobile stacked full width, the last (main) action on top. */
export function DialogFooter({ className, ...props }: ComponentPropsWithRef<'div'>) {
  return <div className={cx('ui-dialog__footer', className)} {...props} />;
}
