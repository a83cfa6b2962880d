import { type ReactNode, useId } from 'react';
import { BrandMark } from '../../shared/ui/BrandMark';
import './auth-pages.css';

interface AuthCardProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  /** Links under the card: "Already have an account?" and the like. */
  footer?: ReactNode;
}

/** The frame every identity page shares: a centred card with the mark, one h1 and the form. */
export function AuthCard({ title, intro, children, footer }: AuthCardProps) {
  const titleId = useId();
  return (
    <section className="auth-card" aria-labelledby={titleId}>
      <header className="auth-card__header">
        <BrandMark size={40} className="auth-card__mark" />
        <h1 id={titleId} className="auth-card__title">
          {title}
        </h1>
        {intro && <div className="auth-card__intro">{intro}</div>}
      </header>
      {children}
      {footer && <footer className="auth-card__footer">{footer}</footer>}
    </section>
  );
}

/** A finished step inside the card: a tick and what happened, for screen readers too. */
export function AuthNotice({ tone = 'ok', children }: { tone?: 'ok' | 'error'; children: ReactNode }) {
  return (
    <div className={`auth-notice auth-notice--${tone}`} role="status">
      <span className="auth-notice__icon" aria-hidden="true">
        {tone === 'ok' ? '✓' : '!'}
      </span>
      <div className="auth-notice__text">{children}</div>
    </div>
  );
}
