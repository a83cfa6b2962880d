import { combineSlices, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { sessionReducer } from '../features/auth/session.slice';
import { bootReducer } from '../features/boot/boot.slice';
import { matchingReducer } from '../features/matching/matching.slice';
import { systemReducer } from '../features/system/system.slice';
import { rootSaga } from './root-saga';
import { type AppServices, browserServices } from './services';

/**
 * Slices a lazy chunk adds when it loads (`slice.injectInto(rootReducer)`), declared by that chunk through module
 * augmentation: the dashboard's state and code never reach a user's first visit.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface LazyLoadedSlices {}

export const rootReducer = combineSlices({
  boot: bootReducer,
  session: sessionReducer,
  system: systemReducer,
  matching: matchingReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

export type RootState = ReturnType<typeof rootReducer>;

/**
 * The one way to get a store, for the app and for tests alike. `services` replaces any of the network,
 * socket, storage, page loads or clock with a fake; the app passes none.
 */
export function makeStore(preloadedState?: Partial<RootState>, services: Partial<AppServices> = {}) {
  const sagaMiddleware = createSagaMiddleware();
  const store = configureStore({
    reducer: rootReducer,
    preloadedState,
    middleware: (getDefaultMiddleware) => getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware),
  });
  sagaMiddleware.run(rootSaga, { ...browserServices, ...services });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
