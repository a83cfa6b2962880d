import type { RootState } from '../../app/store';

export const selectSession = (state: RootState) => state.session;
export const selectCurrentUser = (state: RootState) => state.session.user;
