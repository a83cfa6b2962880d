import type { ReactNode } from 'react';
import './forms.css';

interface FormAlertProps {
  messages: readonly string[];
  children?: ReactNode;
}

/** What went wrong with the form as a whole; announced at once and focusable so a failed submit can land here. */
export function FormAlert({ messages, children }: FormAlertProps) {
  if (messages.length === 0) return null;
  return (
    <div className="form-alert" role="alert" tabIndex={-1} data-form-alert>
      {messages.map((message) => (
        <p key={message}>{message}</p>
      ))}
      {children}
    </div>
  );
}
