import type { UserInfo } from '@serendip/proto';
import { type FormEvent, useState } from 'react';
import { authApi } from '../../features/auth/auth-api';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { TextField } from '../../shared/forms/TextField';
import { useSubmission } from '../../shared/forms/use-submission';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import { AuthCard } from './AuthCard';

type CodeField = 'code';

const FIELDS: FieldRules<CodeField> = { code: { label: 'Login code' } };

const CODE_LENGTH = 6;
const CODE_PATTERN = /^\d{6}$/;

export const CODE_MESSAGES = {
  invalid: `Enter the ${CODE_LENGTH}-digit code from the e-mail.`,
  rejected: 'That code is not right, or it has expired. Check the e-mail or send a new code.',
  resent: 'We sent you a new code.',
} as const;

interface LoginCodeStepProps {
  challengeId: string;
  emailAddress: string;
  onSignedIn: (user: UserInfo) => void;
  /** Logs in again with the same credentials, which e-mails a fresh code under a new challenge. */
  onResend: () => Promise<void>;
  onCancel: () => void;
}

/** The second login step: the 6-digit code e-mailed to the user (5 tries, 10 minutes). */
export function LoginCodeStep({ challengeId, emailAddress, onSignedIn, onResend, onCancel }: LoginCodeStepProps) {
  useDocumentTitle('Enter your login code');
  const { formRef, sending, errors, submit, fail } = useSubmission<CodeField>();
  const [code, setCode] = useState('');
  const [resending, setResending] = useState(false);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => (CODE_PATTERN.test(code) ? null : { fields: { code: [CODE_MESSAGES.invalid] }, form: [] }),
      async () => onSignedIn(await authApi.verifyLogin({ challengeId, code })),
      (error) => errorsFromFailure(error, FIELDS, CODE_MESSAGES.rejected),
    );

  async function resend() {
    setResending(true);
    try {
      await onResend();
      setCode('');
      notify.success(CODE_MESSAGES.resent);
    } catch (error) {
      fail(errorsFromFailure(error, FIELDS, CODE_MESSAGES.rejected));
    } finally {
      setResending(false);
    }
  }

  return (
    <AuthCard
      title="Check your e-mail"
      intro={
        <p>
          We sent a {CODE_LENGTH}-digit login code to <strong>{emailAddress}</strong>. It expires in 10 minutes.
        </p>
      }
      footer={
        <button type="button" className="auth-text-button" onClick={onCancel}>
          Use a different account
        </button>
      }
    >
      <form ref={formRef} className="form" noValidate onSubmit={handleSubmit}>
        <div className="code-input">
          <TextField
            name="code"
            label={FIELDS.code.label}
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9]*"
            // The user came here to type this code; the step replaced the form they were in.
            autoFocus
            required
            value={code}
            onChange={(event) => setCode(event.target.value.replace(/\D/g, '').slice(0, CODE_LENGTH))}
            errors={errors.fields.code}
          />
        </div>
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Checking the code…">
          Verify and log in
        </SubmitButton>
        <button type="button" className="auth-text-button" onClick={resend} disabled={resending || sending}>
          {resending ? 'Sending a new code…' : 'Send a new code'}
        </button>
      </form>
    </AuthCard>
  );
}
