/** The auth routes other features link or redirect to (spec 2). */
export const AUTH_ROUTES = {
  login: '/auth/login',
  signup: '/auth/signup',
  continueSignup: '/auth/signup/cs',
  passwordReset: '/auth/password-reset',
} as const;
