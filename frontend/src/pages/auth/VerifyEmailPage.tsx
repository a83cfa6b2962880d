import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { authApi } from '../../features/auth/auth-api';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { emailVerified } from '../../features/auth/session.slice';
import { FORM_MESSAGES } from '../../shared/forms/form-errors';
import { isHttpError } from '../../shared/http/http-error';
import { useDocumentTitle } from '../../shared/use-document-title';
import { AuthCard, AuthNotice } from './AuthCard';
import '../../shared/forms/forms.css';

type Outcome = 'verifying' | 'verified' | 'link-failed' | 'unreachable';

export const VERIFY_MESSAGES = {
  verified: 'Your e-mail address is verified.',
  linkFailed: 'This verification link has expired or was already used.',
} as const;

/** /auth/verify-email?token=...: the landing of the e-mailed link (single use, 24 hours). */
export function VerifyEmailPage() {
  useDocumentTitle('Verify your e-mail');
  const [searchParams] = useSearchParams();
  const token = searchParams.get('token') ?? '';
  const [outcome, retry] = useVerification(token);
  const user = useAppSelector(selectCurrentUser);
  const dispatch = useAppDispatch();
  const staleUser = outcome === 'verified' && user !== null && !user.emailVerified;
  // The link may be opened while the session is still starting: the user it brings still says unverified.
  useEffect(() => {
    if (staleUser) dispatch(emailVerified());
  }, [staleUser, dispatch]);

  if (outcome === 'verifying') {
    return (
      <AuthCard title="Verifying your e-mail">
        <div className="auth-pending" role="status">
          <span className="spinner spinner--large" aria-hidden="true" />
          <p>One moment…</p>
        </div>
      </AuthCard>
    );
  }
  if (outcome === 'verified') {
    return (
      <AuthCard title="E-mail verified">
        <AuthNotice>
          <strong>{VERIFY_MESSAGES.verified}</strong>
          <span>Thanks! Your account is confirmed.</span>
        </AuthNotice>
        <Link to={user ? '/' : AUTH_ROUTES.login} className="button button--primary button--block">
          {user ? 'Continue' : 'Log in'}
        </Link>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="We couldn't verify your e-mail">
      <AuthNotice tone="error">
        <strong>{outcome === 'unreachable' ? FORM_MESSAGES.unreachable : VERIFY_MESSAGES.linkFailed}</strong>
        {outcome === 'link-failed' && (
          <span>Each link works once, for 24 hours. If your address is already verified, there is nothing to do.</span>
        )}
      </AuthNotice>
      {outcome === 'unreachable' && (
        <button type="button" className="button button--quiet button--block" onClick={retry}>
          Try again
        </button>
      )}
      <Link to={user ? '/' : AUTH_ROUTES.login} className="button button--primary button--block">
        {user ? 'Back to Serendip' : 'Log in'}
      </Link>
    </AuthCard>
  );
}

/**
 * POSTs the token once. The token is single use, so React's development double effect must not send it twice: the
 * second POST would fail and hide the first one's success. Hence a ref, and no cleanup that drops the answer.
 */
function useVerification(token: string): [Outcome, () => void] {
  const sent = useRef<{ token: string; attempt: number } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome>(token === '' ? 'link-failed' : 'verifying');

  useEffect(() => {
    if (token === '' || (sent.current?.token === token && sent.current.attempt === attempt)) return;
    sent.current = { token, attempt };
    authApi.verifyEmail({ token }).then(
      () => setOutcome('verified'),
      (error: unknown) => setOutcome(isHttpError(error) ? 'link-failed' : 'unreachable'),
    );
  }, [token, attempt]);

  // Only after no answer at all: an answered token is spent or refused, and sending it again changes nothing.
  const retry = () => {
    setOutcome('verifying');
    setAttempt((count) => count + 1);
  };
  return [outcome, retry];
}
