import { type ReactNode, useEffect } from 'react';
import { Link, useLocation, useNavigationType } from 'react-router';
import { SupportEmailLink } from './config-text';
import { usePageMeta } from './page-meta';
import { EFFECTIVE_DATE, STATIC_PAGE_LINKS } from './static-pages';
import './static-page.css';

export interface StaticSection {
  /** The section's anchor: `#id` in the table of contents and in links from other pages. */
  id: string;
  title: string;
  content: ReactNode;
}

interface StaticPageProps {
  /** The small label above the title, naming where the page belongs. */
  area: 'Legal' | 'Support';
  title: string;
  description: string;
  /** The path the page is known by (spec 2); the related-pages list leaves it out. */
  path: string;
  canonicalPath?: string;
  intro: ReactNode;
  sections: readonly StaticSection[];
}

/** The frame of every legal and support text: title, effective date, contents, sections, related pages. */
export function StaticPage({ area, title, description, path, canonicalPath, intro, sections }: StaticPageProps) {
  usePageMeta({ title, description, canonicalPath });
  useScrollOnArrival();
  return (
    <article className="static-page" aria-labelledby="static-page-title">
      <header className="static-page__header">
        <p className="static-page__area">{area}</p>
        <h1 id="static-page-title" className="static-page__title">
          {title}
        </h1>
        <p className="static-page__meta">
          <span>
            Effective date: <time dateTime={EFFECTIVE_DATE.iso}>{EFFECTIVE_DATE.shown}</time>
          </span>
          <span>
            Questions? <SupportEmailLink />
          </span>
        </p>
        <div className="static-page__intro">{intro}</div>
      </header>

      <nav className="static-page__toc" aria-label="On this page">
        <p className="static-page__toc-title" aria-hidden="true">
          On this page
        </p>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              {/* A plain anchor: the browser scrolls to it, which a router link to a hash does not. */}
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>

      <div className="static-page__body">
        {sections.map((section) => (
          <section key={section.id} id={section.id} className="static-section" aria-labelledby={`${section.id}-title`}>
            <h2 id={`${section.id}-title`}>{section.title}</h2>
            {section.content}
          </section>
        ))}

        <nav className="static-page__related" aria-label="Related pages">
          <p aria-hidden="true">Related pages</p>
          <ul>
            {STATIC_PAGE_LINKS.filter((link) => link.to !== path).map((link) => (
              <li key={link.to}>
                <Link to={link.to}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </article>
  );
}

/**
 * Where the reader lands. A link to `#section` from another page arrives before this page's lazy chunk has
 * rendered, so the browser found nothing to scroll to: go there now. A link to the page itself starts at the top
 * (the app has no scroll restoration yet, and the related-pages links sit at the bottom); back and forward (POP)
 * are left to the browser.
 */
function useScrollOnArrival() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (hash.length > 1) document.getElementById(decodeURIComponent(hash.slice(1)))?.scrollIntoView();
    else if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
}
