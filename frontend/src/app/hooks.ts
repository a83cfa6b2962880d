import { useDispatch, useSelector, useStore } from 'react-redux';
import type { AppDispatch, AppStore, RootState } from './store';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
/** The store itself: for state kept beside it, one per store (the dashboard's live figures). */
export const useAppStore = useStore.withTypes<AppStore>();
