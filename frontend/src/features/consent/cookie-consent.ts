/** spec 2 "Cookie banner", spec 3: consent is kept in the browser under this key, as the string 'true'. */
export const COOKIE_CONSENT_KEY = 'serendip.cookieConsent';

export function hasCookieConsent(): boolean {
  try {
    return window.localStorage.getItem(COOKIE_CONSENT_KEY) === 'true';
  } catch {
    return false;
  }
}

/** Storage can be off (private modes): then the banner simply comes back on the next visit. */
export function storeCookieConsent(): void {
  try {
    window.localStorage.setItem(COOKIE_CONSENT_KEY, 'true');
  } catch {
    // Nothing else to do.
  }
}
