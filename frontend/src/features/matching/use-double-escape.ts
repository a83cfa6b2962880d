import { useEffect, useRef } from 'react';

/** Two presses of Escape within this long skip the call, as on Omegle. */
export const DOUBLE_ESCAPE_MS = 1_000;

/**
 * Something on screen that Escape closes first: a dialog (Report User, its 'Are you sure?'), a menu. An Escape meant
 * for it is not half of a skip.
 */
const escapeHasAnotherUse = () =>
  document.querySelector('[role="dialog"], [role="alertdialog"], [role="menu"], [role="listbox"]') !== null;

/**
 * Calls `onDouble` when Escape is pressed twice within DOUBLE_ESCAPE_MS while `active`. Listens on the window in the
 * capture phase, so it sees a dialog still open before the dialog's own Escape handler closes it; a held key's
 * repeats and an input method's composing do not count.
 */
export function useDoubleEscape(active: boolean, onDouble: () => void) {
  const latest = useRef(onDouble);
  useEffect(() => {
    latest.current = onDouble;
  }, [onDouble]);

  useEffect(() => {
    if (!active) return;
    let firstAt: number | null = null;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.repeat || event.isComposing) return;
      if (escapeHasAnotherUse()) {
        firstAt = null;
        return;
      }
      const now = Date.now();
      if (firstAt !== null && now - firstAt <= DOUBLE_ESCAPE_MS) {
        firstAt = null;
        latest.current();
      } else firstAt = now;
    };
    window.addEventListener('keydown', onKeyDown, true);
    return () => window.removeEventListener('keydown', onKeyDown, true);
  }, [active]);
}
