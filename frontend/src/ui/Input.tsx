import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from './cx';
import { Field, type FieldChrome, useFieldWiring } from './Field';

export interface InputProps extends Omit<ComponentPropsWithRef<'input'>, 'children'>, FieldChrome {
  /** A decorative icon inside the box, before the text (a search glass). */
  startIcon?: ReactNode;
}

/** A labelled text input; `className` goes on the field wrapper, every other prop (and ref) on the <input>. */
export function Input({
  label,
  hideLabel,
  hint,
  error,
  startIcon,
  id,
  className,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  ...input
}: InputProps) {
  const wiring = useFieldWiring({ id, hint, error, describedBy, invalid });
  return (
    <Field {...wiring} label={label} hideLabel={hideLabel} hint={hint} error={error} className={className}>
      <div className="ui-field__control">
        {startIcon && (
          <span className="ui-field__icon" aria-hidden="true">
            {startIcon}
          </span>
        )}
        <input
          {...input}
          {...wiring.controlProps}
          className={cx('ui-field__input', Boolean(startIcon) && 'ui-field__input--with-icon')}
        />
      </div>
    </Field>
  );
}
