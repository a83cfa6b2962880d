import { createSlice } from '@reduxjs/toolkit';

/** booting: the first server check has not answered yet, so the loading overlay covers the app. */
export type BootPhase = 'booting' | 'ready';

export interface BootState {
  phase: BootPhase;
}

const initialState: BootState = { phase: 'booting' };

const bootSlice = createSlice({
  name: 'boot',
  initialState,
  reducers: {
    bootFinished(state) {
      state.phase = 'ready';
    },
  },
});

export const { bootFinished } = bootSlice.actions;
export const bootReducer = bootSlice.reducer;
