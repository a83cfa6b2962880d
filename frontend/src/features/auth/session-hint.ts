/**
 * Whether this browser may hold a session. The session cookies are HttpOnly, so the page cannot see the
 * refresh token spec 4 checks for; this flag stands in for it. It is set whenever a user is signed in here and
 * cleared on logout or when the server says the session is gone. Without it the client asks nothing at start: a
 * visitor's page makes no call that is bound to fail (a 401 is a console error in the browser).
 */
export interface SessionHint {
  mayHaveSession(): boolean;
  remember(): void;
  forget(): void;
}

export const SESSION_HINT_KEY = 'serendip.session';

/** localStorage can throw (storage disabled, private modes); then the hint is simply absent. */
export const localSessionHint: SessionHint = {
  mayHaveSession() {
    try {
      return window.localStorage.getItem(SESSION_HINT_KEY) === '1';
    } catch {
      return false;
    }
  },
  remember() {
    try {
      window.localStorage.setItem(SESSION_HINT_KEY, '1');
    } catch {
      // Nothing to do: the next start will just treat the browser as a visitor's.
    }
  },
  forget() {
    try {
      window.localStorage.removeItem(SESSION_HINT_KEY);
    } catch {
      // As above.
    }
  },
};
