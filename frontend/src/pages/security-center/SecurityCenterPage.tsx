import { Activity, ExternalLink, FileText, Gavel, HeartPulse, History, LifeBuoy, Flag } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { RECENT_CALLS_PATH } from '../../features/reports/report-paths';
import { publicConfig } from '../../shared/config/public-config';
import { useDocumentTitle } from '../../shared/use-document-title';
import './security-center.css';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

export const BAN_HISTORY_PATH = '/security-center/view-ban-history';

interface CardProps {
  title: string;
  text: string;
  icon: ReactNode;
}

const COMING_SOON: CardProps[] = [
  { title: 'Account Health', text: 'How your account stands with the community.', icon: <HeartPulse /> },
  { title: 'Logs', text: 'Sign-ins and changes to your account.', icon: <Activity /> },
  { title: 'Reports', text: 'Reports you made and what came of them.', icon: <Flag /> },
  { title: 'Tickets', text: 'Your conversations with our support team.', icon: <LifeBuoy /> },
];

/** `/security-center` (spec 2): the Ban History and Recent calls cards, and the others marked coming soon. */
export function SecurityCenterPage() {
  useDocumentTitle('Security Center');
  const { systemStatusUrl } = publicConfig();
  return (
    <div className="security-center">
      <nav className="security-center__menu" aria-label="Security center">
        <MenuGroup title="Account">
          <li>
            <Link to={BAN_HISTORY_PATH}>Ban History</Link>
          </li>
          <li>
            <Link to={RECENT_CALLS_PATH}>Recent calls</Link>
          </li>
        </MenuGroup>
        <MenuGroup title="Community & Guidelines">
          <li>
            <Link to={STATIC_PAGE_PATHS.communityGuidelines}>Community Guidelines</Link>
          </li>
          <li>
            <Link to={STATIC_PAGE_PATHS.termsOfService}>Terms of Service</Link>
          </li>
          <li>
            <Link to={STATIC_PAGE_PATHS.privacyPolicy}>Privacy Policy</Link>
          </li>
        </MenuGroup>
        {systemStatusUrl && (
          <MenuGroup title="Support">
            <li>
              <a href={systemStatusUrl} target="_blank" rel="noopener noreferrer">
                System Status <ExternalLink aria-hidden="true" size={14} />
                <span className="visually-hidden"> (opens in a new tab)</span>
              </a>
            </li>
          </MenuGroup>
        )}
      </nav>

      <section className="security-center__main" aria-labelledby="security-center-title">
        <h1 id="security-center-title" className="security-center__title">
          Security Center
        </h1>
        <p className="security-center__intro">Everything about the safety of your account, in one place.</p>
        <ul className="security-cards">
          <li>
            <Link className="security-card security-card--live" to={BAN_HISTORY_PATH}>
              <span className="security-card__icon" aria-hidden="true">
                <Gavel />
              </span>
              <span className="security-card__title">Ban History</span>
              <span className="security-card__text">Restrictions on your account, their reasons and your appeals.</span>
            </Link>
          </li>
          <li>
            <Link className="security-card security-card--live" to={RECENT_CALLS_PATH}>
              <span className="security-card__icon" aria-hidden="true">
                <History />
              </span>
              <span className="security-card__title">Recent calls</span>
              <span className="security-card__text">Your calls of the last 24 hours: report someone you met.</span>
            </Link>
          </li>
          {COMING_SOON.map((card) => (
            <li key={card.title}>
              <div className="security-card" aria-disabled="true">
                <span className="security-card__icon" aria-hidden="true">
                  {card.icon}
                </span>
                <span className="security-card__title">
                  {card.title} <span className="security-card__soon">coming soon</span>
                </span>
                <span className="security-card__text">{card.text}</span>
              </div>
            </li>
          ))}
        </ul>
        <p className="security-center__docs">
          <FileText aria-hidden="true" size={16} /> How penalties work:{' '}
          <Link to={STATIC_PAGE_PATHS.penaltySystem}>Penalty System</Link>
        </p>
      </section>
    </div>
  );
}

function MenuGroup({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="security-center__group">
      <h2 className="security-center__group-title">{title}</h2>
      <ul>{children}</ul>
    </div>
  );
}
