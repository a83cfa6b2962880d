import type { CSSProperties } from 'react';
import { Toaster } from 'sonner';
import { TOAST_SETTINGS } from './toast-settings';

// sonner reads its width and colours from CSS variables on the toaster; these win over its own stylesheet and
// put the toasts on the app's dark surfaces (styles.css) instead of sonner's black.
const toasterStyle = {
  '--width': `${TOAST_SETTINGS.widthPx}px`,
  '--normal-bg': 'var(--surface-raised)',
  '--normal-border': 'var(--border)',
  '--normal-text': 'var(--text)',
  '--success-bg': 'var(--surface-raised)',
  '--success-border': 'rgb(52 211 153 / 0.45)',
  '--success-text': 'var(--ok)',
  '--error-bg': 'var(--surface-raised)',
  '--error-border': 'rgb(248 113 113 / 0.45)',
  '--error-text': 'var(--danger)',
  '--border-radius': 'var(--radius)',
  fontFamily: 'var(--font)',
} as CSSProperties;

/**
 * Where every toast appears; mounted once, in AppShell. spec 9: 4000 ms, 3 visible, 356 px wide, 14 px apart.
 */
export function Toasts() {
  return (
    <Toaster
      theme="dark"
      richColors
      duration={TOAST_SETTINGS.durationMs}
      visibleToasts={TOAST_SETTINGS.visibleToasts}
      gap={TOAST_SETTINGS.gapPx}
      style={toasterStyle}
    />
  );
}
