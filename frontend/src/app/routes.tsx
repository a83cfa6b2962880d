import type { RouteObject } from 'react-router';
import { RequireSession } from '../features/auth/RequireSession';
import { staticRoutes } from '../pages/legal/static-routes';
import { AppShell } from './AppShell';
import { lazyPage, PageLoading } from './lazy-page';

/** One route table for the browser router (main.tsx) and the memory router (tests). Every page is a lazy chunk. */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    children: [
      // spec 2: home has its own lighter guard: a landing page for visitors, the signed-in home for users.
      lazyPage(undefined, () => import('../pages/home/HomeRoute').then((m) => m.HomeRoute)),
      // spec 2, public.
      lazyPage('auth/signup', () => import('../pages/auth/SignupPage').then((m) => m.SignupPage)),
      lazyPage('auth/login', () => import('../pages/auth/LoginPage').then((m) => m.LoginPage)),
      lazyPage('auth/password-reset', () => import('../pages/auth/PasswordResetPage').then((m) => m.PasswordResetPage)),
      lazyPage('auth/verify-email', () => import('../pages/auth/VerifyEmailPage').then((m) => m.VerifyEmailPage)),
      lazyPage('reset-password/:token', () =>
        import('../pages/auth/ResetPasswordPage').then((m) => m.ResetPasswordPage),
      ),
      ...staticRoutes,
      // spec 2, signed-in (guarded).
      {
        element: <RequireSession />,
        children: [
          lazyPage('auth/signup/cs', () =>
            import('../pages/auth/ContinueSignupPage').then((m) => m.ContinueSignupPage),
          ),
          lazyPage('video-match', () => import('../pages/video-match/VideoMatchPage').then((m) => m.VideoMatchPage)),
          lazyPage('security-center', () =>
            import('../pages/security-center/SecurityCenterPage').then((m) => m.SecurityCenterPage),
          ),
          lazyPage('security-center/view-ban-history', () =>
            import('../pages/security-center/BanHistoryPage').then((m) => m.BanHistoryPage),
          ),
          lazyPage('security-center/recent-calls', () =>
            import('../pages/security-center/RecentCallsPage').then((m) => m.RecentCallsPage),
          ),
          lazyPage('settings', () => import('../pages/settings/SettingsPage').then((m) => m.SettingsPage)),
          // spec 2 "Other screens": the full notifications page (its path is ours).
          lazyPage('notifications', () =>
            import('../pages/notifications/NotificationsPage').then((m) => m.NotificationsPage),
          ),
          lazyPage('settings/profile', () =>
            import('../pages/settings/ProfileSettingsPage').then((m) => m.ProfileSettingsPage),
          ),
          // spec 2 "Other screens": the feed, single-post view, own profile, peer page and activity page (paths ours).
          lazyPage('feed', () => import('../pages/feed/FeedPage').then((m) => m.FeedPage)),
          lazyPage('feed/post/:postId', () => import('../pages/feed/PostPage').then((m) => m.PostPage)),
          lazyPage('profile', () => import('../pages/feed/ProfilePage').then((m) => m.ProfilePage)),
          lazyPage('u/:userId', () => import('../pages/feed/PeerPage').then((m) => m.PeerPage)),
          lazyPage('activity', () => import('../pages/feed/ActivityPage').then((m) => m.ActivityPage)),
        ],
      },
      // spec 2: the 404 page for any other path.
      lazyPage('*', () => import('../pages/not-found/NotFoundPage').then((m) => m.NotFoundPage)),
    ],
  },
  // spec 2 "Admin dashboard", spec 6: admins and moderators only, in the dashboard's own frame and lazy chunks.
  {
    path: 'dashboard',
    element: <AppShell bare />,
    children: [
      {
        element: <RequireSession adminOnly />,
        children: [
          {
            HydrateFallback: PageLoading,
            lazy: async () => ({
              Component: (await import('../pages/dashboard/DashboardLayout')).DashboardLayout,
            }),
            children: [
              lazyPage(undefined, () => import('../pages/dashboard/overview/OverviewPage').then((m) => m.OverviewPage)),
              lazyPage('user-management', () =>
                import('../pages/dashboard/users/UserManagementPage').then((m) => m.UserManagementPage),
              ),
              lazyPage('user-management/:userId/view-details', () =>
                import('../pages/dashboard/users/UserDetailsPage').then((m) => m.UserDetailsPage),
              ),
              lazyPage('reports', () => import('../pages/dashboard/reports/ReportsPage').then((m) => m.ReportsPage)),
              lazyPage('appeals', () => import('../pages/dashboard/appeals/AppealsPage').then((m) => m.AppealsPage)),
              lazyPage('server-logs', () =>
                import('../pages/dashboard/server-logs/SystemLogPage').then((m) => m.SystemLogPage),
              ),
              lazyPage('announcements', () =>
                import('../pages/dashboard/announcements/AnnouncementsPage').then((m) => m.AnnouncementsPage),
              ),
            ],
          },
        ],
      },
    ],
  },
];
