import type { RouteObject } from 'react-router';
import { RequireSession } from '../features/auth/RequireSession';
import { ContinueSignupPage } from '../pages/auth/ContinueSignupPage';
import { LoginPage } from '../pages/auth/LoginPage';
import { PasswordResetPage } from '../pages/auth/PasswordResetPage';
import { ResetPasswordPage } from '../pages/auth/ResetPasswordPage';
import { SignupPage } from '../pages/auth/SignupPage';
import { VerifyEmailPage } from '../pages/auth/VerifyEmailPage';
import { VideoMatchComingSoonPage } from '../pages/auth/VideoMatchComingSoonPage';
import { HomePage } from '../pages/home/HomePage';
import { NotFoundPage } from '../pages/not-found/NotFoundPage';
import { AppShell } from './AppShell';

/** One route table for the browser router (main.tsx) and the memory router (tests). */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      // spec 2 puts home behind its own guard; it stays public until the signed-in home exists.
      { index: true, element: <HomePage /> },
      // spec 2, public.
      { path: 'auth/signup', element: <SignupPage /> },
      { path: 'auth/login', element: <LoginPage /> },
      { path: 'auth/password-reset', element: <PasswordResetPage /> },
      { path: 'auth/verify-email', element: <VerifyEmailPage /> },
      { path: 'reset-password/:token', element: <ResetPasswordPage /> },
      // spec 2, signed-in (guarded).
      {
        element: <RequireSession />,
        children: [
          { path: 'auth/signup/cs', element: <ContinueSignupPage /> },
          { path: 'video-match', element: <VideoMatchComingSoonPage /> },
        ],
      },
      // spec 2: the 404 page for any other path.
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
