import type { ReactNode } from 'react';
import './forms.css';

interface SubmitButtonProps {
  busy: boolean;
  /** What the button says while the form is sending, e.g. 'Signing in…'. */
  busyLabel: string;
  children: ReactNode;
}

/** The form's one submit button: disabled with a spinner while the request is out. */
export function SubmitButton({ busy, busyLabel, children }: SubmitButtonProps) {
  return (
    <button type="submit" className="button button--primary button--block" disabled={busy} aria-busy={busy}>
      {busy && <span className="spinner" aria-hidden="true" />}
      <span>{busy ? busyLabel : children}</span>
    </button>
  );
}
