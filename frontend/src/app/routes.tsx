import type { RouteObject } from 'react-router';
import { HomePage } from '../pages/home/HomePage';
import { NotFoundPage } from '../pages/not-found/NotFoundPage';
import { AppShell } from './AppShell';

/** One route table for the browser router (main.tsx) and the memory router (tests). */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      { index: true, element: <HomePage /> },
      // spec 2: the 404 page for any other path.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
