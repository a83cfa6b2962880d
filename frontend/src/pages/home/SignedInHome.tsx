import type { UserInfo } from '@serendip/proto';
import { Link } from 'react-router';
import { useAppSelector } from '../../app/hooks';
import { displayName } from '../../features/auth/user-info';
import { OnlineCount } from '../../features/presence/OnlineCount';
import { ServerStatusPill } from '../../features/system/ServerStatusPill';
import { useDocumentTitle } from '../../shared/use-document-title';
import './home.css';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

const SHORTCUTS = [
  { to: '/security-center', title: 'Security Center', text: 'Your ban history, and soon your account health.' },
  { to: '/settings', title: 'Settings', text: 'Your profile, your e-mail and password, your devices.' },
  {
    to: STATIC_PAGE_PATHS.communityGuidelines,
    title: 'Community Guidelines',
    text: 'What keeps Serendip good for all.',
  },
] as const;

/** `/` for a signed-in user: the way to the next match first, then the rest of their Serendip. */
export function SignedInHome({ user }: { user: UserInfo }) {
  useDocumentTitle('Home');
  // Just through the sign-up steps: this is their first visit, not a return.
  const newcomer = useAppSelector((state) => state.session.newcomer);
  return (
    <div className="signed-in-home">
      <section className="welcome" aria-labelledby="welcome-title">
        <ServerStatusPill />
        <h1 id="welcome-title" className="welcome__title">
          {newcomer ? 'Welcome' : 'Welcome back'}, <span className="hero__accent">{displayName(user)}</span>
        </h1>
        <p className="welcome__text">Someone new is one click away. Set your preferences and start matching.</p>
        <Link className="button button--primary welcome__cta" to="/video-match">
          Start video matching
        </Link>
        <OnlineCount />
      </section>
      <ul className="shortcuts" aria-label="Your Serendip">
        {SHORTCUTS.map((item) => (
          <li key={item.to}>
            <Link className="shortcut" to={item.to}>
              <span className="shortcut__title">{item.title}</span>
              <span className="shortcut__text">{item.text}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
