/** The dashboard's routes (spec 2 "Admin dashboard"); the appeals queue is ours (spec 2 leaves it unnamed). */
export const DASHBOARD_PATHS = {
  overview: '/dashboard',
  users: '/dashboard/user-management',
  userDetails: (userId: string) => `/dashboard/user-management/${encodeURIComponent(userId)}/view-details`,
  reports: '/dashboard/reports',
  appeals: '/dashboard/appeals',
  serverLogs: '/dashboard/server-logs',
  announcements: '/dashboard/announcements',
} as const;
