import { combineReducers, configureStore } from '@reduxjs/toolkit';
import createSagaMiddleware from 'redux-saga';
import { sessionReducer } from '../features/auth/session.slice';
import { bootReducer } from '../features/boot/boot.slice';
import { matchingReducer } from '../features/matching/matching.slice';
import { notificationsReducer } from '../features/notifications/notifications.slice';
import { pushTapMiddleware } from '../features/system/push-taps';
import { systemReducer } from '../features/system/system.slice';
import { rootSaga } from './root-saga';
import { type AppServices, browserServices } from './services';

const rootReducer = combineReducers({
  boot: bootReducer,
  session: sessionReducer,
  system: systemReducer,
  matching: matchingReducer,
  notifications: notificationsReducer,
});

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
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({ thunk: false }).concat(sagaMiddleware, pushTapMiddleware),
  });
  sagaMiddleware.run(rootSaga, { ...browserServices, ...services });
  return store;
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
