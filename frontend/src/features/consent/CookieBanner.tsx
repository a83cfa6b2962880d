import { Cookie } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { hasCookieConsent, storeCookieConsent } from './cookie-consent';
import './cookie-banner.css';
import { STATIC_PAGE_PATHS } from '../../pages/legal/static-pages';

/** spec 2 "Global overlays": shown until the visitor accepts; the choice is kept in this browser. */
export function CookieBanner() {
  const [accepted, setAccepted] = useState(hasCookieConsent);
  if (accepted) return null;
  return (
    <section className="cookie-banner" aria-label="Cookie notice">
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
