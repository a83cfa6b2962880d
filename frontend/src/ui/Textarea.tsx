import type { ComponentPropsWithRef } from 'react';
import { Field, type FieldChrome, useFieldWiring } from './Field';

export type TextareaProps = Omit<ComponentPropsWithRef<'textarea'>, 'children'> & FieldChrome;

/** A labelled multi-line input; `className` goes on the field wrapper, every other prop (and ref) on the <textarea>. */
export function Textarea({
  label,
  hideLabel,
  hint,
  error,
  id,
  className,
  rows = 4,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  ...textarea
}: TextareaProps) {
  const wiring = useFieldWiring({ id, hint, error, describedBy, invalid });
  return (
    <Field {...wiring} label={label} hideLabel={hideLabel} hint={hint} error={error} className={className}>
      <textarea
        {...textarea}
        {...wiring.controlProps}
        rows={rows}
        className="ui-field__input ui-field__input--multiline"
      />
    </Field>
  );
}
