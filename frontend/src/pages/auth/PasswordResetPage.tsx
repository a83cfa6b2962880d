import { EmailField } from './AuthFields';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { authApi } from '../../features/auth/auth-api';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { errorsFromFailure, FORM_MESSAGES, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { useSubmission } from '../../shared/forms/use-submission';
import { isHttpError } from '../../shared/http/http-error';
import { useDocumentTitle } from '../../shared/use-document-title';
import { emailProblems } from './auth-checks';
import { AuthCard, AuthNotice } from './AuthCard';

type ResetField = 'emailAddress';

const FIELDS: FieldRules<ResetField> = { emailAddress: { label: 'E-mail address' } };

export const RESET_REQUESTED = 'If an account exists for that address, we sent a link to reset its password.';

/**
 * /auth/password-reset. Whatever the server answers, the page says the same thing: the reply must not tell anyone
 * whether an address has an account. Only no answer at all is reported, so the user can try again.
 */
export function PasswordResetPage() {
  useDocumentTitle('Reset your password');
  const { formRef, sending, errors, submit } = useSubmission<ResetField>();
  const [emailAddress, setEmailAddress] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => {
        const problems = emailProblems(emailAddress);
        return problems.length > 0 ? { fields: { emailAddress: problems }, form: [] } : null;
      },
      async () => {
        const address = emailAddress.trim();
        try {
          await authApi.requestPasswordReset({ emailAddress: address });
        } catch (error) {
          if (!isHttpError(error)) throw error;
        }
        setSentTo(address);
      },
      (error) => errorsFromFailure(error, FIELDS, FORM_MESSAGES.unreachable),
    );

  const footer = (
    <p>
      Remembered it?{' '}
      <Link to={AUTH_ROUTES.login} className="auth-link">
        Back to login
      </Link>
    </p>
  );

  if (sentTo !== null) {
    return (
      <AuthCard title="Check your e-mail" footer={footer}>
        <AuthNotice>
          <strong>{RESET_REQUESTED}</strong>
          <span>
            We wrote to {sentTo}. The link works once, for 30 minutes. Nothing there? Check your spam folder, or{' '}
            <button type="button" className="auth-text-button auth-text-button--inline" onClick={() => setSentTo(null)}>
              try another address
            </button>
            .
          </span>
        </AuthNotice>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Reset your password"
      intro="Enter the e-mail address of your account and we will send you a link to choose a new password."
      footer={footer}
    >
      <form ref={formRef} className="form" noValidate onSubmit={handleSubmit}>
        <EmailField
          label={FIELDS.emailAddress.label}
          autoComplete="email"
          value={emailAddress}
          onChange={setEmailAddress}
          errors={errors.fields.emailAddress}
        />
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Sending the link…">
          Send reset link
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
