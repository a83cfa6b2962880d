/**
 * The client's own checks on identity forms. They only spare a round trip and say it sooner: the server checks
 * everything again and its words win when they differ.
 */

/** Passwords are 8 to 128 characters and not among the most common ones (the server knows that list). */
export const PASSWORD_LENGTH = { min: 8, max: 128 } as const;

export const CHECK_MESSAGES = {
  emailMissing: 'Enter your e-mail address.',
  emailInvalid: 'Enter a valid e-mail address, like name@example.com.',
  passwordMissing: 'Enter your password.',
  passwordTooShort: `Use at least ${PASSWORD_LENGTH.min} characters.`,
  passwordTooLong: `Use at most ${PASSWORD_LENGTH.max} characters.`,
  confirmMismatch: 'The two passwords do not match.',
} as const;

// text, an at sign, a domain with a dot (the shape spec 5 asks of an e-mail address).
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function emailProblems(value: string): string[] {
  const email = value.trim();
  if (email === '') return [CHECK_MESSAGES.emailMissing];
  return EMAIL_SHAPE.test(email) ? [] : [CHECK_MESSAGES.emailInvalid];
}

export function passwordLengthProblems(password: string): string[] {
  if (password === '') return [CHECK_MESSAGES.passwordMissing];
  if (password.length < PASSWORD_LENGTH.min) return [CHECK_MESSAGES.passwordTooShort];
  if (password.length > PASSWORD_LENGTH.max) return [CHECK_MESSAGES.passwordTooLong];
  return [];
}

export function confirmProblems(password: string, confirm: string): string[] {
  return confirm === password ? [] : [CHECK_MESSAGES.confirmMismatch];
}

/** Drops the fields with nothing to say, so an empty result means "all good". */
export function onlyProblems<F extends string>(fields: Record<F, string[]>): Partial<Record<F, string[]>> {
  const result: Partial<Record<F, string[]>> = {};
  for (const [field, problems] of Object.entries(fields) as [F, string[]][]) {
    if (problems.length > 0) result[field] = problems;
  }
  return result;
}
