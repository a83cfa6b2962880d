import { useCallback, useEffect, useState } from 'react';

/**
 * Full screen for the call, one click in and out (Escape leaves it too, as browsers do). The whole page goes full
 * screen, not the call's element alone: the Report dialog and the toasts are drawn at the end of <body>, and a
 * full-screen element shows nothing outside itself. The call frame has nothing else on screen but the call, and its
 * header hides while full screen (matching.css).
 */
export function useFullscreen() {
  const [on, setOn] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const changed = () => setOn(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', changed);
    return () => document.removeEventListener('fullscreenchange', changed);
  }, []);
  // Leaving the call leaves full screen: the wizard and other pages are not made for it.
  useEffect(
    () => () => {
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    },
    [],
  );
  const toggle = useCallback(() => {
    // A refusal (no user gesture, a frame without permission) leaves the page as it was; nothing to tell.
    if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    else void document.documentElement.requestFullscreen?.().catch(() => undefined);
  }, []);
  return { on, toggle, available: typeof document !== 'undefined' && document.fullscreenEnabled === true };
}
