import { Slot } from 'radix-ui';
import type { ComponentPropsWithRef } from 'react';
import { cx } from './cx';
import './card.css';

export interface CardProps extends ComponentPropsWithRef<'div'> {
  /** A gradient hairline and glow: the one card on a screen that matters most. */
  glow?: boolean;
  /** Lifts on hover; for a card that is itself a link (pair with asChild). */
  interactive?: boolean;
  /** Render the single child (a <section>, <li> or router Link) as the card. */
  asChild?: boolean;
}

/** A raised glass panel. Compose with CardHeader, CardTitle, CardDescription and CardFooter. */
export function Card({ glow = false, interactive = false, asChild = false, className, ...props }: CardProps) {
  const Element = asChild ? Slot.Root : 'div';
  return (
    <Element
      className={cx('ui-card', glow && 'ui-card--glow', interactive && 'ui-card--interactive', className)}
      {...props}
    />
  );
}

export function CardHeader({ className, ...props }: ComponentPropsWithRef<'div'>) {
  return <div className={cx('ui-card__header', className)} {...props} />;
}

export interface CardTitleProps extends ComponentPropsWithRef<'h2'> {
  /** The heading level that fits the page outline. */
  as?: 'h2' | 'h3' | 'h4';
}

export function CardTitle({ as: Heading = 'h2', className, ...props }: CardTitleProps) {
  return <Heading className={cx('ui-card__title', className)} {...props} />;
}

export function CardDescription({ className, ...props }: ComponentPropsWithRef<'p'>) {
  return <p className={cx('ui-card__description', className)} {...props} />;
}

export function CardFooter({ className, ...props }: ComponentPropsWithRef<'div'>) {
  return <div className={cx('ui-card__footer', className)} {...props} />;
}
