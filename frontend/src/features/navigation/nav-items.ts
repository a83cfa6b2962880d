/** Where the menus of spec 2 lead. */
export const NAV_PATHS = {
  home: '/',
  videoMatch: '/video-match',
  settings: '/settings',
  securityCenter: '/security-center',
  dashboard: '/dashboard',
  notifications: '/notifications',
  feed: '/feed',
  profile: '/profile',
  activity: '/activity',
} as const;
