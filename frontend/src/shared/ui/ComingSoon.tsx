import type { ReactNode } from 'react';
import { useDocumentTitle } from '../use-document-title';
import './coming-soon.css';

/** A signed-in page whose feature a later release brings: its title, and what the user will find there. */
export function ComingSoon({ page, title, children }: { page: string; title: string; children: ReactNode }) {
  useDocumentTitle(page);
  return (
    <section className="coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title" className="coming-soon__title">
        {title}
      </h1>
      <p className="coming-soon__text">{children}</p>
    </section>
  );
}
