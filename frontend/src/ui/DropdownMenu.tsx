import { DropdownMenu as MenuPrimitive, Slot } from 'radix-ui';
import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from './cx';
import './dropdown-menu.css';

/**
 * Radix dropdown menu: Enter, Space or ArrowDown on the trigger opens it, arrows move between items, Enter picks
 * one, Escape closes and returns focus to the trigger.
 */
export const DropdownMenu = MenuPrimitive.Root;
/** Usually `<DropdownMenuTrigger asChild><Button …/></DropdownMenuTrigger>`. */
export const DropdownMenuTrigger = MenuPrimitive.Trigger;
export const DropdownMenuGroup = MenuPrimitive.Group;

/** The floating list, portalled to <body>; by default below the trigger, aligned to its end edge. */
export function DropdownMenuContent({
  className,
  sideOffset = 8,
  align = 'end',
  collisionPadding = 12,
  ...props
}: ComponentPropsWithRef<typeof MenuPrimitive.Content>) {
  return (
    <MenuPrimitive.Portal>
      <MenuPrimitive.Content
        className={cx('ui-menu', className)}
        sideOffset={sideOffset}
        align={align}
        collisionPadding={collisionPadding}
        {...props}
      />
    </MenuPrimitive.Portal>
  );
}

export interface DropdownMenuItemProps extends ComponentPropsWithRef<typeof MenuPrimitive.Item> {
  /** A decorative icon before the text. */
  icon?: ReactNode;
  /** danger for an item that destroys or ends something (Log Out, Delete). */
  tone?: 'default' | 'danger';
}

/** Pick it with onSelect; for navigation use asChild around a router Link (the icon is put inside the Link). */
export function DropdownMenuItem({ icon, tone = 'default', className, children, ...props }: DropdownMenuItemProps) {
  return (
    <MenuPrimitive.Item
      className={cx('ui-menu__item', tone === 'danger' && 'ui-menu__item--danger', className)}
      {...props}
    >
      {icon && (
        <span className="ui-menu__icon" aria-hidden="true">
          {icon}
        </span>
      )}
      <Slot.Slottable>{children}</Slot.Slottable>
    </MenuPrimitive.Item>
  );
}

export function DropdownMenuLabel({ className, ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Label>) {
  return <MenuPrimitive.Label className={cx('ui-menu__label', className)} {...props} />;
}

export function DropdownMenuSeparator({ className, ...props }: ComponentPropsWithRef<typeof MenuPrimitive.Separator>) {
  return <MenuPrimitive.Separator className={cx('ui-menu__separator', className)} {...props} />;
}
