import { ServerStatusPill } from '../../features/system/ServerStatusPill';
import { useDocumentTitle } from '../../shared/use-document-title';

// What the product does, in the spec's words (spec 1); the signed-in home replaces this page later.
const HIGHLIGHTS = [
  { title: 'Random, one to one', text: 'Meet a stranger face to face. Skip to the next one whenever you like.' },
  { title: 'Your preferences', text: 'Narrow matches by gender, country and age range, or leave it all to chance.' },
  { title: 'Safe by design', text: 'Chat by text during the call and report anyone who breaks the guidelines.' },
] as const;

export function HomePage() {
  useDocumentTitle();
  return (
    <div className="home">
      <section className="hero" aria-labelledby="hero-title">
        <ServerStatusPill />
        <h1 id="hero-title" className="hero__title">
          Meet someone new, <span className="hero__accent">face to face.</span>
        </h1>
        <p className="hero__pitch">Serendip is random one-to-one video chat with strangers, with enhanced privacy.</p>
        <p className="hero__adults">For adults only: you must be 18 or older to use Serendip.</p>
      </section>
      <ul className="highlights" aria-label="What Serendip offers">
        {HIGHLIGHTS.map((item) => (
          <li key={item.title} className="highlight">
            <h2 className="highlight__title">{item.title}</h2>
            <p className="highlight__text">{item.text}</p>
          </li>
        ))}
      </ul>
    </div>
  );
}
