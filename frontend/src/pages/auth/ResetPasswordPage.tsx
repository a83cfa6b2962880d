import { NewPasswordFields } from './AuthFields';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { authApi } from '../../features/auth/auth-api';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { useSubmission } from '../../shared/forms/use-submission';
import { useDocumentTitle } from '../../shared/use-document-title';
import { confirmProblems, onlyProblems, passwordLengthProblems } from './auth-checks';
import { AuthCard, AuthNotice } from './AuthCard';

type NewPasswordField = 'newPassword' | 'confirmPassword';

const FIELDS: FieldRules<NewPasswordField> = {
  // The password policy's messages start with 'Password' or say 'This password ...'.
  newPassword: { label: 'New password', alsoMatches: /password must|this password/i },
  confirmPassword: { label: 'Confirm new password' },
};

export const RESET_LINK_FAILED = 'This reset link has expired or was already used.';

/** /reset-password/:token, the new-password form behind the e-mailed link (spec 2; single use, 30 minutes). */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { token = '' } = useParams();
  const { formRef, sending, errors, submit } = useSubmission<NewPasswordField>();
  const [newPassword, setNewPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [changed, setChanged] = useState(false);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => ({
        fields: onlyProblems({
          newPassword: passwordLengthProblems(newPassword),
          confirmPassword: confirmProblems(newPassword, confirmPassword),
        }),
        form: [],
      }),
      async () => {
        await authApi.resetPassword({ token, newPassword });
        setChanged(true);
      },
      (error) => errorsFromFailure(error, FIELDS, RESET_LINK_FAILED),
    );

  if (changed) {
    return (
      <AuthCard title="Password changed">
        <AuthNotice>
          <strong>Your password has been changed.</strong>
          <span>For your safety, every other device signed in to your account has been signed out.</span>
        </AuthNotice>
        <Link to={AUTH_ROUTES.login} className="button button--primary button--block">
          Log in
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      intro="Pick a password you don't use anywhere else."
      footer={
        <p>
          Link not working?{' '}
          <Link to={AUTH_ROUTES.passwordReset} className="auth-link">
            Ask for a new one
          </Link>
        </p>
      }
    >
      <form ref={formRef} className="form" noValidate onSubmit={handleSubmit}>
        <NewPasswordFields
          name="newPassword"
          labels={{ password: FIELDS.newPassword.label, confirm: FIELDS.confirmPassword.label }}
          password={newPassword}
          confirm={confirmPassword}
          onPassword={setNewPassword}
          onConfirm={setConfirmPassword}
          errors={{ password: errors.fields.newPassword, confirm: errors.fields.confirmPassword }}
        />
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Saving your new password…">
          Change password
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
