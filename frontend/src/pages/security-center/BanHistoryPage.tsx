import { ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../shared/use-document-title';
import './security-center.css';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

/**
 * `/security-center/view-ban-history` (spec 2). Nothing can ban an account yet, so every account's history is empty;
 * TODO: list the user's bans and appeals from the server here.
 */
export function BanHistoryPage() {
  useDocumentTitle('Ban History');
  return (
    <section className="ban-history" aria-labelledby="ban-history-title">
      <Link className="ban-history__back" to="/security-center">
        ← Security Center
      </Link>
      <h1 id="ban-history-title" className="security-center__title">
        Ban History
      </h1>
      <div className="ban-history__empty">
        <ShieldCheck aria-hidden="true" size={40} />
        <p className="ban-history__empty-title">Your account has never been restricted.</p>
        <p className="ban-history__empty-text">
          If it ever is, each restriction, its reason and your appeal will be listed here. See how the{' '}
          <Link to={STATIC_PAGE_PATHS.penaltySystem}>penalty system</Link> works.
        </p>
      </div>
    </section>
  );
}
