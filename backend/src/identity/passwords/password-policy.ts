import { createRequire } from 'node:module';

const commonPasswords = createRequire(import.meta.url)('fxa-common-password-list') as {
  test(password: string): boolean;
};

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

/**
 * What a new password must be (OWASP ASVS): long enough, not absurdly long (argon2 would hash it anyway, but a
 * megabyte body is abuse), and not among the most common passwords. Returns the problem, or undefined.
 */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters`;
  if (password.length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters`;
  if (commonPasswords.test(password) || commonPasswords.test(password.toLowerCase())) {
    return 'This password is one of the most common ones; choose another';
  }
  return undefined;
}
