import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import './badge.css';

export type BadgeTone = 'neutral' | 'accent' | 'ok' | 'danger' | 'pending';

export interface BadgeProps extends ComponentPropsWithRef<'span'> {
  /** spec 2: appeal approved ok, pending pending, rejected danger, none neutral. */
  tone?: BadgeTone;
}

/** A short status label; its text must say the status too, the colour only repeats it. */
export function Badge({ tone = 'neutral', className, ...props }: BadgeProps) {
  return <span className={cx('ui-badge', `ui-badge--${tone}`, className)} {...props} />;
}
