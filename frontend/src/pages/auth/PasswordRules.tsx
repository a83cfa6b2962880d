import { PASSWORD_LENGTH } from './auth-checks';

/** The password policy under a new-password field; the length rule ticks itself as the user types. */
export function PasswordRules({ password }: { password: string }) {
  const lengthMet = password.length >= PASSWORD_LENGTH.min && password.length <= PASSWORD_LENGTH.max;
  return (
    <ul className="password-rules" aria-label="Password rules">
      <li className={lengthMet ? 'password-rules__rule password-rules__rule--met' : 'password-rules__rule'}>
        <span className="password-rules__mark" aria-hidden="true">
          {lengthMet ? '✓' : ''}
        </span>
        {PASSWORD_LENGTH.min} to {PASSWORD_LENGTH.max} characters
      </li>
      <li className="password-rules__rule">
        <span className="password-rules__mark" aria-hidden="true" />
        Not a common password
      </li>
    </ul>
  );
}
