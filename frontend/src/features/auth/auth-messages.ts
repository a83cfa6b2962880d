/** spec 6, 8: the guards' toasts, word for word. */
export const AUTH_TOASTS = {
  unauthorizedLogIn: 'Unauthorized, Please Log In.',
  unauthorizedAdmin: 'Unauthorized, 404',
  sessionExpired: 'Session Expired, Please Log In.',
  loggedOutElsewhere: 'You logged out in another tab or window.',
} as const;
