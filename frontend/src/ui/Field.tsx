import { CircleAlert } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { cx } from './cx';
import { VisuallyHidden } from './VisuallyHidden';
import './field.css';

/** What Input and Textarea add around their control. */
export interface FieldChrome {
  label: ReactNode;
  /** Keep the label for screen readers only, when the layout already says what the field is (a chat box). */
  hideLabel?: boolean;
  hint?: ReactNode;
  /** Shown under the control, read out with it, and marks it invalid. */
  error?: ReactNode;
}

function isShown(node: ReactNode): boolean {
  return node !== undefined && node !== null && node !== false && node !== '';
}

/** Ids that tie the control to its label, hint and error (aria-describedby, aria-invalid). */
export function useFieldWiring({
  id,
  hint,
  error,
  describedBy,
  invalid,
}: {
  id: string | undefined;
  hint: ReactNode;
  error: ReactNode;
  describedBy: string | undefined;
  invalid: boolean | 'true' | 'false' | 'grammar' | 'spelling' | undefined;
}) {
  const base = useId();
  const controlId = id ?? `${base}-control`;
  const hintId = isShown(hint) ? `${base}-hint` : undefined;
  const errorId = isShown(error) ? `${base}-error` : undefined;
  return {
    controlId,
    hintId,
    errorId,
    controlProps: {
      id: controlId,
      'aria-describedby': cx(describedBy, hintId, errorId) || undefined,
      'aria-invalid': errorId ? true : invalid,
    },
  };
}

interface FieldProps extends FieldChrome {
  controlId: string;
  hintId: string | undefined;
  errorId: string | undefined;
  className: string | undefined;
  children: ReactNode;
}

export function Field({ controlId, hintId, errorId, label, hideLabel, hint, error, className, children }: FieldProps) {
  const labelElement = (
    <label className="ui-field__label" htmlFor={controlId}>
      {label}
    </label>
  );
  return (
    <div className={cx('ui-field', errorId && 'ui-field--invalid', className)}>
      {hideLabel ? <VisuallyHidden>{labelElement}</VisuallyHidden> : labelElement}
      {children}
      {hintId && (
        <p id={hintId} className="ui-field__hint">
          {hint}
        </p>
      )}
      {errorId && (
        <p id={errorId} className="ui-field__error">
          <CircleAlert aria-hidden="true" focusable="false" />
          <span>{error}</span>
        </p>
      )}
    </div>
  );
}
