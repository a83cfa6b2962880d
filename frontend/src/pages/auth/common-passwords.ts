import { useEffect, useState } from 'react';
import { logError } from '../../shared/log';

interface CommonPasswordList {
  test(password: string): boolean;
}

let list: Promise<CommonPasswordList> | undefined;

/**
 * The server's list of common passwords (fxa-common-password-list, backend/src/identity/passwords/password-policy.ts),
 * fetched on first use as its own chunk: about 100 KB that a first visit to login must not pay for.
 */
export function loadCommonPasswords(): Promise<CommonPasswordList> {
  list ??= import('fxa-common-password-list').then((module) => (module.default ?? module) as CommonPasswordList);
  return list;
}

/** The server refuses a password on the list, as typed or in lower case (the same test as the policy). */
export function isCommonPassword(passwords: CommonPasswordList, password: string): boolean {
  return passwords.test(password) || passwords.test(password.toLowerCase());
}

/**
 * Whether `password` is one of the common ones: undefined while the list loads (or could not), so the rule ticks
 * only once it is known.
 */
export function useIsCommonPassword(password: string): boolean | undefined {
  const [passwords, setPasswords] = useState<CommonPasswordList>();
  useEffect(() => {
    let live = true;
    loadCommonPasswords().then(
      (loaded) => live && setPasswords(() => loaded),
      (error: unknown) => logError('the common password list did not load', error),
    );
    return () => {
      live = false;
    };
  }, []);
  return passwords ? isCommonPassword(passwords, password) : undefined;
}
