/**
 * spec 9: the toast constants. The fifth, a 20 px swipe threshold, has no setting in sonner 2: it hard-codes
 * 45 px (or a fast flick), so swiping follows sonner.
 */
export const TOAST_SETTINGS = {
  durationMs: 4000,
  visibleToasts: 3,
  widthPx: 356,
  gapPx: 14,
} as const;
