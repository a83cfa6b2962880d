import type { RouteObject } from 'react-router';
import { lazyPage } from '../../app/lazy-page';
import { STATIC_PAGE_PATHS } from './static-pages';

/**
 * spec 2, public: the legal and support text pages. Each page's text is its own chunk, fetched when a visitor
 * opens it, so nobody downloads the terms to see the home page.
 */
export const staticRoutes: RouteObject[] = [
  lazyPage(STATIC_PAGE_PATHS.termsOfUse.slice(1), () => import('./TermsPage').then((m) => m.TermsOfUsePage)),
  lazyPage(STATIC_PAGE_PATHS.termsOfService.slice(1), () => import('./TermsPage').then((m) => m.TermsOfServicePage)),
  lazyPage(STATIC_PAGE_PATHS.privacyPolicy.slice(1), () =>
    import('./PrivacyPolicyPage').then((m) => m.PrivacyPolicyPage),
  ),
  lazyPage(STATIC_PAGE_PATHS.cookies.slice(1), () => import('./CookiePolicyPage').then((m) => m.CookiesPage)),
  lazyPage(STATIC_PAGE_PATHS.cookiePolicy.slice(1), () => import('./CookiePolicyPage').then((m) => m.CookiePolicyPage)),
  lazyPage(STATIC_PAGE_PATHS.communityGuidelines.slice(1), () =>
    import('../support/CommunityGuidelinesPage').then((m) => m.CommunityGuidelinesPage),
  ),
  lazyPage(STATIC_PAGE_PATHS.penaltySystem.slice(1), () =>
    import('../support/PenaltySystemPage').then((m) => m.PenaltySystemPage),
  ),
];
