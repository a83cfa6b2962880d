import { type FormEvent, type ReactNode, useState } from 'react';
import { FormAlert } from '../../shared/forms/FormAlert';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { useSubmission } from '../../shared/forms/use-submission';
import { Button } from '../../ui/Button';
import { DialogClose, DialogFooter } from '../../ui/Dialog';
import { Input } from '../../ui/Input';

const FIELD_RULES: FieldRules<'currentPassword'> = { currentPassword: { label: 'Current password' } };

interface PasswordConfirmFormProps {
  /** What to say when the field is left empty. */
  missing: string;
  /** The change itself; a refusal shows under the field (a wrong password) or above the buttons. */
  confirm: (currentPassword: string) => Promise<void>;
  /** Said when the failure carries no words of its own. */
  fallback: string;
  /** Called with the failure before it is shown (for the log). */
  onFailure?: (error: unknown) => void;
  labels: { submit: string; sending: string; done?: string };
  /** The change went through and the dialog stays only until the page moves on. */
  done?: boolean;
  children?: ReactNode;
}

/** A dialog's "type your current password to confirm" form (spec 2 "Account settings dialog": changes ask for it). */
export function PasswordConfirmForm({
  missing,
  confirm,
  fallback,
  onFailure,
  labels,
  done = false,
  children,
}: PasswordConfirmFormProps) {
  const { formRef, sending, errors, submit } = useSubmission<'currentPassword'>();
  const [currentPassword, setCurrentPassword] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => (currentPassword === '' ? { fields: { currentPassword: [missing] }, form: [] } : null),
      () => confirm(currentPassword),
      (error) => {
        onFailure?.(error);
        return errorsFromFailure(error, FIELD_RULES, fallback);
      },
    );

  return (
    <form ref={formRef} className="account-form" onSubmit={onSubmit} noValidate>
      {children}
      <Input
        label="Current password"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
        error={errors.fields.currentPassword?.join(' ')}
        disabled={sending || done}
      />
      <FormAlert messages={errors.form} />
      <DialogFooter>
        {!done && (
          <DialogClose asChild>
            <Button variant="quiet" disabled={sending}>
              Cancel
            </Button>
          </DialogClose>
        )}
        <Button type="submit" variant="danger" busy={sending || done}>
          {done ? labels.done : sending ? labels.sending : labels.submit}
        </Button>
      </DialogFooter>
    </form>
  );
}
