import { Cookie } from 'lucide-react';
import { type RefObject, useLayoutEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { hasCookieConsent, storeCookieConsent } from './cookie-consent';
import './cookie-banner.css';
import { STATIC_PAGE_PATHS } from '../../pages/legal/static-pages';

/** spec 2 "Global overlays": shown until the visitor accepts; the choice is kept in this browser. */
export function CookieBanner() {
  const [accepted, setAccepted] = useState(hasCookieConsent);
  const banner = useRef<HTMLElement>(null);
  useReservedSpace(banner, !accepted);
  if (accepted) return null;
  return (
    <section ref={banner} className="cookie-banner" aria-label="Cookie notice">
      <Cookie className="cookie-banner__icon" aria-hidden="true" />
      <p className="cookie-banner__text">
        We use cookies to provide a better user experience.{' '}
        <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>
      </p>
      <button
        type="button"
        className="button button--primary button--small"
        onClick={() => {
          storeCookieConsent();
          setAccepted(true);
        }}
      >
        Accept
      </button>
    </section>
  );
}

/**
 * While the banner shows, the page keeps the screen's bottom strip it takes (banner, gap, and the phone's nav under
 * it) as `--cookie-banner-space`: the page can scroll its end above the banner, and a field or button brought into view
 * (focus, scrollIntoView) stops above it, instead of under it (sign-up's Create button on a phone's first visit).
 */
function useReservedSpace(banner: RefObject<HTMLElement | null>, showing: boolean) {
  useLayoutEffect(() => {
    const element = banner.current;
    if (!showing || !element) return;
    const root = document.documentElement;
    const measure = () =>
      root.style.setProperty(
        '--cookie-banner-space',
        `${Math.max(0, Math.ceil(window.innerHeight - element.getBoundingClientRect().top))}px`,
      );
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    observer?.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty('--cookie-banner-space');
    };
  }, [banner, showing]);
}
