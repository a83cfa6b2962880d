import type { RootState } from '../../app/store';

export const selectIsBooting = (state: RootState) => state.boot.phase === 'booting';
