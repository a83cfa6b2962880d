import { Switch as SwitchPrimitive } from 'radix-ui';
import { type ComponentPropsWithRef, type ReactNode, useId } from 'react';
import { cx } from './cx';
import './switch.css';

export interface SwitchProps extends Omit<ComponentPropsWithRef<typeof SwitchPrimitive.Root>, 'children'> {
  label: ReactNode;
  /** A line under the label, read as the switch's description. */
  description?: ReactNode;
}

/**
 * An on/off setting (role="switch", aria-checked). The label clicks it too. `className` goes on the row, every
 * other prop (checked, onCheckedChange, name, ref, …) on the switch.
 */
export function Switch({ label, description, id, className, 'aria-describedby': describedBy, ...props }: SwitchProps) {
  const base = useId();
  const switchId = id ?? `${base}-switch`;
  const descriptionId = description ? `${base}-description` : undefined;
  return (
    <div className={cx('ui-switch', className)}>
      <span className="ui-switch__text">
        <label className="ui-switch__label" htmlFor={switchId}>
          {label}
        </label>
        {description && (
          <span id={descriptionId} className="ui-switch__description">
            {description}
          </span>
        )}
      </span>
      <SwitchPrimitive.Root
        id={switchId}
        className="ui-switch__control"
        aria-describedby={cx(describedBy, descriptionId) || undefined}
        {...props}
      >
        <SwitchPrimitive.Thumb className="ui-switch__thumb" />
      </SwitchPrimitive.Root>
    </div>
  );
}
