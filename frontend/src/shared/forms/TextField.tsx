import { type InputHTMLAttributes, type ReactNode, useId, useState } from 'react';
import './forms.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'children'> {
  name: string;
  label: string;
  errors?: readonly string[];
  hint?: ReactNode;
  /** A Show/Hide button that turns a password field into plain text while pressed. */
  revealable?: boolean;
}

/** A labelled input with its hint and its errors wired to it (aria-describedby, aria-invalid). */
export function TextField({
  name,
  label,
  errors = [],
  hint,
  revealable = false,
  type = 'text',
  ...input
}: TextFieldProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const [revealed, setRevealed] = useState(false);
  const invalid = errors.length > 0;
  const describedBy = [hint ? hintId : null, invalid ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div className={invalid ? 'field field--invalid' : 'field'}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field__control">
        <input
          {...input}
          id={inputId}
          name={name}
          type={revealable && revealed ? 'text' : type}
          className="field__input"
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
        />
        {revealable && (
          <button
            type="button"
            className="field__reveal"
            aria-controls={inputId}
            aria-pressed={revealed}
            onClick={() => setRevealed((shown) => !shown)}
          >
            {revealed ? 'Hide' : 'Show'}
            <span className="visually-hidden"> {label.toLowerCase()}</span>
          </button>
        )}
      </div>
      {hint && (
        <div id={hintId} className="field__hint">
          {hint}
        </div>
      )}
      <FieldErrors id={errorId} errors={errors} />
    </div>
  );
}

export function FieldErrors({ id, errors }: { id: string; errors: readonly string[] }) {
  if (errors.length === 0) return null;
  return (
    <ul id={id} className="field__errors">
      {errors.map((error) => (
        <li key={error}>{error}</li>
      ))}
    </ul>
  );
}
