import type { RootState } from '../../app/store';

export const selectMatching = (state: RootState) => state.matching;
