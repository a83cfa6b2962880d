import type { SocialNetwork } from '@serendip/proto';
import { Link } from 'react-router';
import { publicConfig } from '../shared/config/public-config';
import { BrandMark } from '../shared/ui/BrandMark';
import './footer.css';
import { STATIC_PAGE_PATHS } from '../pages/legal/static-pages';

// spec 1: an image-sharing network, a messaging app, a text-posting network, a chat community server.
const NETWORKS: { key: SocialNetwork; label: string }[] = [
  { key: 'instagram', label: 'Instagram' },
  { key: 'telegram', label: 'Telegram' },
  { key: 'x', label: 'X' },
  { key: 'discord', label: 'Discord' },
];

/** spec 1, 9: the footer of large screens (CSS hides it below the large breakpoint). */
export function Footer() {
  const { companyName, socialLinks } = publicConfig();
  const social = NETWORKS.flatMap(({ key, label }) => {
    const href = socialLinks[key];
    return href ? [{ href, label }] : [];
  });
  return (
    <footer className="footer">
      <div className="footer__product">
        <BrandMark size={22} />
        <p>Serendip offers random video chatting with enhanced privacy and a futuristic interface.</p>
      </div>
      {social.length > 0 && (
        <ul className="footer__social" aria-label="Serendip elsewhere">
          {social.map(({ href, label }) => (
            <li key={label}>
              <a href={href} target="_blank" rel="noopener noreferrer">
                {label}
              </a>
            </li>
          ))}
        </ul>
      )}
      <div className="footer__legal">
        <p>
          © {new Date().getFullYear()} {companyName}. All rights reserved.
        </p>
        <nav aria-label="Legal">
          <Link to={STATIC_PAGE_PATHS.termsOfUse}>Terms</Link>
          <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy</Link>
          <Link to={STATIC_PAGE_PATHS.cookies}>Cookies</Link>
        </nav>
      </div>
    </footer>
  );
}
