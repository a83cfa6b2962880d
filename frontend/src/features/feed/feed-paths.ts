/** The feed's pages (spec 2 "Other screens": their paths are ours). */
export const FEED_ROUTES = {
  feed: '/feed',
  post: (postId: string) => `/feed/post/${encodeURIComponent(postId)}`,
  profile: '/profile',
  peer: (userId: string) => `/u/${encodeURIComponent(userId)}`,
  activity: '/activity',
} as const;

/** Someone's page: mine is /profile, anyone else's the peer page. */
export const profilePath = (userId: string, viewerId: string) =>
  userId === viewerId ? FEED_ROUTES.profile : FEED_ROUTES.peer(userId);
