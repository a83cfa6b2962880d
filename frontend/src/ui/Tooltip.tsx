import { Tooltip as TooltipPrimitive } from 'radix-ui';
import type { ComponentPropsWithRef, ReactElement, ReactNode } from 'react';
import { cx } from './cx';
import './tooltip.css';

/** Mount once near the app root: tooltips share its delay, so moving from one to the next shows it at once. */
export function TooltipProvider({
  delayDuration = 300,
  ...props
}: ComponentPropsWithRef<typeof TooltipPrimitive.Provider>) {
  return <TooltipPrimitive.Provider delayDuration={delayDuration} {...props} />;
}

export interface TooltipProps extends Omit<ComponentPropsWithRef<typeof TooltipPrimitive.Content>, 'content'> {
  /** The hint; it becomes the trigger's accessible description, never its name (icon buttons still need aria-label). */
  content: ReactNode;
  /** One focusable element: the trigger. */
  children: ReactElement;
  open?: boolean;
  defaultOpen?: boolean;
  onOpenChange?: (open: boolean) => void;
  delayDuration?: number;
}

/** A hint on hover and on keyboard focus; Escape hides it. Needs a TooltipProvider above it. */
export function Tooltip({
  content,
  children,
  open,
  defaultOpen,
  onOpenChange,
  delayDuration,
  side = 'top',
  sideOffset = 8,
  collisionPadding = 8,
  className,
  ...props
}: TooltipProps) {
  return (
    <TooltipPrimitive.Root
      open={open}
      defaultOpen={defaultOpen}
      onOpenChange={onOpenChange}
      delayDuration={delayDuration}
    >
      <TooltipPrimitive.Trigger asChild>{children}</TooltipPrimitive.Trigger>
      <TooltipPrimitive.Portal>
        <TooltipPrimitive.Content
          className={cx('ui-tooltip', className)}
          side={side}
          sideOffset={sideOffset}
          collisionPadding={collisionPadding}
          {...props}
        >
          {content}
          <TooltipPrimitive.Arrow className="ui-tooltip__arrow" width={12} height={6} />
        </TooltipPrimitive.Content>
      </TooltipPrimitive.Portal>
    </TooltipPrimitive.Root>
  );
}
