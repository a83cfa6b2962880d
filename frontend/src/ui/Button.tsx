import { Slot } from 'radix-ui';
import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';

export type ButtonVariant = 'primary' | 'quiet' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md' | 'lg';

export interface ButtonLook {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Full width of its container. */
  block?: boolean;
  /** A square button holding only an icon; give it an aria-label. */
  iconOnly?: boolean;
}

const SIZE_CLASS: Record<ButtonSize, string | null> = { sm: 'button--small', md: null, lg: 'button--large' };

/** The classes of a button, for an element that has to stay what it is (a router Link, a file-input label). */
export function buttonClassName(
  { variant = 'primary', size = 'md', block = false, iconOnly = false }: ButtonLook = {},
  className?: string,
): string {
  return cx(
    'button',
    `button--${variant}`,
    SIZE_CLASS[size],
    block && 'button--block',
    iconOnly && 'button--icon',
    className,
  );
}

export interface ButtonProps extends ComponentPropsWithRef<'button'>, ButtonLook {
  /** Give the button's look and props to the single child instead, e.g. `<Button asChild><Link to="/">…</Link></Button>`. */
  asChild?: boolean;
  /** The action is running: disabled, announced as busy, a ring before the label (say what is happening in it). */
  busy?: boolean;
}

export function Button({
  variant,
  size,
  block,
  iconOnly,
  asChild = false,
  busy = false,
  className,
  type = 'button',
  disabled,
  children,
  ...props
}: ButtonProps) {
  const classes = buttonClassName({ variant, size, block, iconOnly }, className);
  if (asChild) {
    return (
      <Slot.Root className={classes} {...(props as ComponentPropsWithRef<typeof Slot.Root>)}>
        {children}
      </Slot.Root>
    );
  }
  return (
    // type defaults to "button": a button inside a form only submits when it says so.
    <button type={type} className={classes} disabled={disabled || busy} aria-busy={busy || undefined} {...props}>
      {busy && <span className="button__spinner" aria-hidden="true" />}
      {children}
    </button>
  );
}
