import { VisuallyHidden as VisuallyHiddenPrimitive } from 'radix-ui';

/** Read by screen readers, not drawn: inline styles, so it works before any stylesheet loads. */
export const VisuallyHidden = VisuallyHiddenPrimitive.Root;
