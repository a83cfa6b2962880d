import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import { VisuallyHidden } from './VisuallyHidden';
import './spinner.css';

export interface SpinnerProps extends Omit<ComponentPropsWithRef<'span'>, 'children'> {
  /** What is loading, for screen readers: 'Loading ban status'. */
  label?: string;
  size?: 'sm' | 'md' | 'lg';
}

/** A turning brand ring announced as a status; with reduced motion it breathes instead of turning. */
export function Spinner({ label = 'Loading', size = 'md', className, ...props }: SpinnerProps) {
  return (
    <span role="status" className={cx('ui-spinner', `ui-spinner--${size}`, className)} {...props}>
      <span className="ui-spinner__ring" aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </span>
  );
}
