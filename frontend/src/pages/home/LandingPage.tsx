import { Link } from 'react-router';
import { AUTH_ROUTES } from '../../features/auth/auth-routes';
import { ServerStatusPill } from '../../features/system/ServerStatusPill';
import { useDocumentTitle } from '../../shared/use-document-title';
import './home.css';
import { STATIC_PAGE_PATHS } from '../legal/static-pages';

// What the product does, in the spec's words (spec 1).
const HIGHLIGHTS = [
  { title: 'Random, one to one', text: 'Meet a stranger face to face. Skip to the next one whenever you like.' },
  { title: 'Your preferences', text: 'Narrow matches by gender, country and age range, or leave it all to chance.' },
  { title: 'Safe by design', text: 'Chat by text during the call and report anyone who breaks the guidelines.' },
] as const;

const STEPS = [
  { title: 'Create your account', text: 'An e-mail address and a password. Add a login code by e-mail if you like.' },
  { title: 'Set your preferences', text: 'Who you would like to meet: gender, country, age range. All optional.' },
  { title: 'Say hello', text: 'Video and text chat with one person at a time. Not your vibe? Skip.' },
] as const;

/** `/` for visitors: what Serendip is, who it is for, and the way in. */
export function LandingPage() {
  useDocumentTitle();
  return (
    <div className="landing">
      <section className="hero" aria-labelledby="hero-title">
        <ServerStatusPill />
        <h1 id="hero-title" className="hero__title">
          Meet someone new, <span className="hero__accent">face to face.</span>
        </h1>
        <p className="hero__pitch">Serendip is random one-to-one video chat with strangers, with enhanced privacy.</p>
        <div className="hero__actions">
          <Link className="button button--primary" to={AUTH_ROUTES.signup}>
            Create your free account
          </Link>
          <Link className="button button--quiet" to={AUTH_ROUTES.login}>
            I have an account
          </Link>
        </div>
        <p className="hero__adults">
          <span className="hero__adults-badge" aria-hidden="true">
            18+
          </span>
          For adults only: you must be 18 or older to use Serendip.
        </p>
      </section>

      <ul className="highlights" aria-label="What Serendip offers">
        {HIGHLIGHTS.map((item) => (
          <li key={item.title} className="highlight">
            <h2 className="highlight__title">{item.title}</h2>
            <p className="highlight__text">{item.text}</p>
          </li>
        ))}
      </ul>

      <section className="steps" aria-labelledby="steps-title">
        <h2 id="steps-title" className="section-title">
          How it works
        </h2>
        <ol className="steps__list">
          {STEPS.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step__number" aria-hidden="true">
                {index + 1}
              </span>
              <h3 className="step__title">{step.title}</h3>
              <p className="step__text">{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="safety" aria-labelledby="safety-title">
        <h2 id="safety-title" className="section-title">
          Fair rules, real moderation
        </h2>
        <p className="safety__text">
          Everyone on Serendip agrees to the same{' '}
          <Link to={STATIC_PAGE_PATHS.communityGuidelines}>community guidelines</Link>. Reports are reviewed by people,
          penalties follow a published <Link to={STATIC_PAGE_PATHS.penaltySystem}>penalty system</Link>, and every ban
          can be appealed.
        </p>
      </section>
    </div>
  );
}
