import { EmailField } from './AuthFields';
import { isTwoFactorChallenge, type LoginRequest, type UserInfo } from '@serendip/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch } from '../../app/hooks';
import { authApi } from '../../features/auth/auth-api';
import { ACCOUNT_MESSAGES } from '../../features/account/account-messages';
import { AUTH_TOASTS } from '../../features/auth/auth-messages';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { safeRedirectTarget } from '../../features/auth/safe-redirect';
import { signedIn } from '../../features/auth/session.slice';
import { needsSignupSteps } from '../../features/auth/user-info';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { TextField } from '../../shared/forms/TextField';
import { useSubmission } from '../../shared/forms/use-submission';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import { CHECK_MESSAGES, emailProblems, onlyProblems } from './auth-checks';
import { AuthCard } from './AuthCard';
import { LoginCodeStep } from './LoginCodeStep';

type LoginField = 'emailAddress' | 'password';

const FIELDS: FieldRules<LoginField> = {
  emailAddress: { label: 'E-mail address' },
  password: { label: 'Password' },
};

/** Why the server ended the session the page came from (see loginPathAfterEnd). */
const REASONS = new Map<string, () => void>([
  ['expired', () => notify.error(AUTH_TOASTS.sessionExpired)],
  ['logged-out', () => notify.error(AUTH_TOASTS.loggedOutElsewhere)],
  ['account-deleted', () => notify.success(ACCOUNT_MESSAGES.accountDeleted)],
]);

// The server says the same for an unknown address and a wrong password (no account enumeration).
const WRONG_CREDENTIALS = 'The e-mail address or password is incorrect.';

/** /auth/login, then the e-mail code step when two-factor is on (spec 1). */
export function LoginPage() {
  useDocumentTitle('Log in');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [searchParams, setSearchParams] = useSearchParams();
  const [challenge, setChallenge] = useState<{ challengeId: string; credentials: LoginRequest } | null>(null);

  // The server ended the session and the page was loaded afresh to come here: say why, once (a reload says nothing).
  const reason = searchParams.get('reason');
  useEffect(() => {
    const tell = reason ? REASONS.get(reason) : undefined;
    if (!tell) return;
    tell();
    setSearchParams(
      (params) => {
        params.delete('reason');
        return params;
      },
      { replace: true },
    );
  }, [reason, setSearchParams]);

  // spec 2: back to the page the guard sent the visitor from, but only somewhere on this site (no open redirect).
  function finish(user: UserInfo) {
    dispatch(signedIn(user));
    const back = safeRedirectTarget(searchParams.get('redirect'));
    // Who still owes the profile step goes there first, and on to the page they came for after it.
    const target = needsSignupSteps(user)
      ? `${AUTH_ROUTES.continueSignup}${back === '/' ? '' : `?redirect=${encodeURIComponent(back)}`}`
      : back;
    navigate(target, { replace: true });
  }

  async function logIn(credentials: LoginRequest) {
    const answer = await authApi.login(credentials);
    if (isTwoFactorChallenge(answer)) setChallenge({ challengeId: answer.challengeId, credentials });
    else finish(answer);
  }

  if (challenge) {
    return (
      <LoginCodeStep
        challengeId={challenge.challengeId}
        emailAddress={challenge.credentials.emailAddress}
        onSignedIn={finish}
        onResend={() => logIn(challenge.credentials)}
        onCancel={() => setChallenge(null)}
      />
    );
  }
  return <CredentialsStep onSubmit={logIn} />;
}

function CredentialsStep({ onSubmit }: { onSubmit: (credentials: LoginRequest) => Promise<void> }) {
  const { formRef, sending, errors, submit } = useSubmission<LoginField>();
  const [emailAddress, setEmailAddress] = useState('');
  const [password, setPassword] = useState('');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => ({
        fields: onlyProblems({
          emailAddress: emailProblems(emailAddress),
          password: password === '' ? [CHECK_MESSAGES.passwordMissing] : [],
        }),
        form: [],
      }),
      () => onSubmit({ emailAddress: emailAddress.trim(), password }),
      (error) => errorsFromFailure(error, FIELDS, WRONG_CREDENTIALS),
    );

  return (
    <AuthCard
      title="Welcome back"
      intro="Log in to meet someone new."
      footer={
        <p>
          New to Serendip?{' '}
          <Link to={AUTH_ROUTES.signup} className="auth-link">
            Get Started
          </Link>
        </p>
      }
    >
      <form ref={formRef} className="form" noValidate onSubmit={handleSubmit}>
        <EmailField
          label={FIELDS.emailAddress.label}
          autoComplete="username"
          value={emailAddress}
          onChange={setEmailAddress}
          errors={errors.fields.emailAddress}
        />
        <TextField
          name="password"
          label={FIELDS.password.label}
          type="password"
          autoComplete="current-password"
          required
          revealable
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          errors={errors.fields.password}
        />
        <p className="auth-row">
          <Link to={AUTH_ROUTES.passwordReset} className="auth-link">
            Forgot your password?
          </Link>
        </p>
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Logging in…">
          Log in
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
