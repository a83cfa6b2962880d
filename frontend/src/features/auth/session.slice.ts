import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { UserInfo } from '@serendip/proto';

/**
 * spec 4 "Route guard states": loading while user info is fetched at start, refreshing while the session token is
 * renewed, then authenticated (a user) or unauthenticated (none). Banned is a property of the user (isBanned).
 */
export type SessionStatus = 'loading' | 'refreshing' | 'authenticated' | 'unauthenticated';

export interface SessionState {
  user: UserInfo | null;
  status: SessionStatus;
  /** Logout is on its way to a full page load; guards wait for it instead of greeting a visitor. */
  signingOut: boolean;
  /** The session was lost while using the app (spec 4 "In-app navigation"): login says it expired. */
  expired: boolean;
  /**
   * The user finished the sign-up steps during this visit (this page load, on whichever device they did it): home
   * greets them as new ('Welcome'), and as returning ('Welcome back') on any later visit.
   */
  newcomer: boolean;
}

const initialState: SessionState = {
  user: null,
  status: 'loading',
  signingOut: false,
  expired: false,
  newcomer: false,
};

function authenticate(state: SessionState, user: UserInfo): void {
  // How this session began is in user info and the sign-in answers only; another answer about the same user (two-factor
  // turned on, a profile edit) leaves it as it was: the dashboard's gate reads it (spec 6 Admin).
  const began = user.signedInWithCode ?? (state.user?._id === user._id ? state.user.signedInWithCode : undefined);
  state.user = began === undefined ? user : { ...user, signedInWithCode: began };
  state.status = 'authenticated';
  state.expired = false;
}

function unauthenticate(state: SessionState): void {
  state.user = null;
  state.newcomer = false;
  state.status = 'unauthenticated';
}

const sessionSlice = createSlice({
  name: 'session',
  initialState,
  reducers: {
    sessionRefreshing(state) {
      state.status = 'refreshing';
    },
    /** The start-up check found the user. */
    sessionStarted(state, action: PayloadAction<UserInfo>) {
      authenticate(state, action.payload);
    },
    /** The start-up check found no session (spec 4: the user is null, loading ends). */
    sessionEnded(state) {
      unauthenticate(state);
    },
    /** A page signed the visitor in: sign-up, login, or the login code. */
    signedIn(state, action: PayloadAction<UserInfo>) {
      authenticate(state, action.payload);
    },
    /** The server answered with a newer version of the signed-in user (continue sign-up). */
    userUpdated(state, action: PayloadAction<UserInfo>) {
      authenticate(state, action.payload);
    },
    /** The continue-signup step was accepted (the finished user comes as userUpdated). */
    signupStepsFinished(state) {
      state.newcomer = true;
    },
    emailVerified(state) {
      if (state.user) state.user.emailVerified = true;
    },
    /** A guarded page was opened in the app; the saga checks the session is still there (spec 4). */
    navigatedInApp(_state, _action: PayloadAction<string>) {},
    /** That check found the session gone: the guard sends the user to login with 'Session Expired, Please Log In.' */
    sessionExpired(state) {
      unauthenticate(state);
      state.expired = true;
    },
    /** `returnTo`: the page to come back to after the next login (a path on this site), else login's default. */
    logoutRequested(state, _action: PayloadAction<{ returnTo?: string } | undefined>) {
      state.signingOut = true;
    },
    /** The server ended this session elsewhere: the page is about to load /auth/login afresh. */
    sessionEndedElsewhere(state) {
      unauthenticate(state);
      state.signingOut = true;
    },
    signedOut(state) {
      unauthenticate(state);
    },
  },
});

export const {
  sessionRefreshing,
  sessionStarted,
  sessionEnded,
  signedIn,
  userUpdated,
  signupStepsFinished,
  emailVerified,
  navigatedInApp,
  sessionExpired,
  logoutRequested,
  sessionEndedElsewhere,
  signedOut,
} = sessionSlice.actions;
export const sessionReducer = sessionSlice.reducer;
