import type { RootState } from '../../app/store';

export const selectHealth = (state: RootState) => state.system.health;
export const selectSocket = (state: RootState) => state.system.socket;
