/** spec 1 and 2: the static text pages, under the paths the footer, the cookie banner and the menus link to. */
export const STATIC_PAGE_PATHS = {
  termsOfUse: '/legal/terms-of-use',
  /** spec 2: the security center menu links here; it shows the terms of use under a canonical link. */
  termsOfService: '/legal/terms-of-service',
  privacyPolicy: '/legal/privacy-policy',
  cookies: '/legal/cookies',
  /** spec 2: the cookies page's canonical link points to a different path, this one. */
  cookiePolicy: '/legal/cookie-policy',
  communityGuidelines: '/support/community-guidelines',
  penaltySystem: '/support/penalty-system',
} as const;

/** The pages a reader may want next, one link each, at the paths spec 2 lists (aliases left out). */
export const STATIC_PAGE_LINKS = [
  { to: STATIC_PAGE_PATHS.termsOfUse, label: 'Terms of Use' },
  { to: STATIC_PAGE_PATHS.privacyPolicy, label: 'Privacy Policy' },
  { to: STATIC_PAGE_PATHS.cookies, label: 'Cookie Policy' },
  { to: STATIC_PAGE_PATHS.communityGuidelines, label: 'Community Guidelines' },
  { to: STATIC_PAGE_PATHS.penaltySystem, label: 'Penalty System' },
] as const;

/** spec 1 and 9: legal pages carry the effective date 11/03/2025 (US order: 3 November 2025). */
export const EFFECTIVE_DATE = { shown: '11/03/2025', iso: '2025-11-03' } as const;
