import { createContext, useContext, useLayoutEffect } from 'react';

/**
 * Which frame the shell draws around the page: the usual one (header, footer, the phone's bottom bar), or the
 * call's, which leaves the screen to the call (spec 2 "Video match screen": separate phone and desktop layouts).
 */
export type ShellFrame = 'page' | 'call';

/** Set by AppShell; outside it (a component rendered on its own in a test) asking for a frame does nothing. */
export const ShellFrameContext = createContext<(frame: ShellFrame) => void>(() => undefined);

/** A page's part asks for a frame while it is on screen; the usual frame comes back when it goes. */
export function useShellFrame(frame: ShellFrame) {
  const setFrame = useContext(ShellFrameContext);
  // Before paint, so the footer and bottom bar never flash under a call that has just begun.
  useLayoutEffect(() => {
    setFrame(frame);
    return () => setFrame('page');
  }, [frame, setFrame]);
}
