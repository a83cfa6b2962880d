import { EmailField, NewPasswordFields } from './AuthFields';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { authApi } from '../../features/auth/auth-api';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { signedIn } from '../../features/auth/session.slice';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { useSubmission } from '../../shared/forms/use-submission';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import { confirmProblems, emailProblems, onlyProblems, passwordLengthProblems } from './auth-checks';
import { AuthCard } from './AuthCard';

type SignupField = 'emailAddress' | 'password' | 'confirmPassword';

const FIELDS: FieldRules<SignupField> = {
  emailAddress: { label: 'E-mail address' },
  // The password policy says 'This password is one of the most common ones'.
  password: { label: 'Password', alsoMatches: /password/i },
  confirmPassword: { label: 'Confirm password' },
};

/** /auth/signup: e-mail and password; the account exists (signed in, unverified) once the server says 201. */
export function SignupPage() {
  useDocumentTitle('Create your account');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { formRef, sending, errors, submit } = useSubmission<SignupField>();
  const [emailAddress, setEmailAddress] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => ({
        fields: onlyProblems({
          emailAddress: emailProblems(emailAddress),
          password: passwordLengthProblems(password),
          confirmPassword: confirmProblems(password, confirmPassword),
        }),
        form: [],
      }),
      async () => {
        // The confirmation stays here: the server forbids unknown fields.
        const user = await authApi.signup({ emailAddress: emailAddress.trim(), password });
        dispatch(signedIn(user));
        notify.success(`Account created. We sent a verification e-mail to ${user.emailAddress}.`);
        navigate(AUTH_ROUTES.continueSignup, { replace: true });
      },
      (error) => errorsFromFailure(error, FIELDS, 'We could not create your account. Please try again.'),
    );

  return (
    <AuthCard
      title="Create your account"
      intro="Random one-to-one video chat for adults. It takes a minute."
      footer={
        <p>
          Already have an account?{' '}
          <Link to={AUTH_ROUTES.login} className="auth-link">
            Log in
          </Link>
        </p>
      }
    >
      <form ref={formRef} className="form" noValidate onSubmit={onSubmit}>
        <EmailField
          label={FIELDS.emailAddress.label}
          autoComplete="email"
          value={emailAddress}
          onChange={setEmailAddress}
          errors={errors.fields.emailAddress}
        />
        <NewPasswordFields
          name="password"
          labels={{ password: FIELDS.password.label, confirm: FIELDS.confirmPassword.label }}
          password={password}
          confirm={confirmPassword}
          onPassword={setPassword}
          onConfirm={setConfirmPassword}
          errors={{ password: errors.fields.password, confirm: errors.fields.confirmPassword }}
        />
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Creating your account…">
          Create account
        </SubmitButton>
        <p className="field__hint">By creating an account you confirm you are 18 or older.</p>
      </form>
    </AuthCard>
  );
}
