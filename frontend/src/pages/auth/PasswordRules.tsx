import type { ReactNode } from 'react';
import { PASSWORD_LENGTH } from './auth-checks';
import { useIsCommonPassword } from './common-passwords';

/** The password policy under a new-password field; each rule ticks itself as the user types. */
export function PasswordRules({ password }: { password: string }) {
  const lengthMet = password.length >= PASSWORD_LENGTH.min && password.length <= PASSWORD_LENGTH.max;
  const common = useIsCommonPassword(password);
  // Ticks once the list has loaded and says the typed password is not on it (the server's own check).
  const notCommon = password !== '' && common === false;
  return (
    <ul className="password-rules" aria-label="Password rules">
      <Rule met={lengthMet}>
        {PASSWORD_LENGTH.min} to {PASSWORD_LENGTH.max} characters
      </Rule>
      <Rule met={notCommon}>Not a common password</Rule>
    </ul>
  );
}

function Rule({ met, children }: { met: boolean; children: ReactNode }) {
  return (
    <li className={met ? 'password-rules__rule password-rules__rule--met' : 'password-rules__rule'}>
      <span className="password-rules__mark" aria-hidden="true">
        {met ? '✓' : ''}
      </span>
      {children}
    </li>
  );
}
