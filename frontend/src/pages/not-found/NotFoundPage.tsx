import { Link } from 'react-router';
import { useDocumentTitle } from '../../shared/use-document-title';

export const NOT_FOUND_TEXT = "Oops! The page you're looking for doesn't exist or may have been moved.";

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <section className="not-found" aria-labelledby="not-found-title">
      <p className="not-found__code" aria-hidden="true">
        404
      </p>
      <h1 id="not-found-title" className="visually-hidden">
        Page not found
      </h1>
      <p className="not-found__text">{NOT_FOUND_TEXT}</p>
      <Link className="button button--primary" to="/">
        Return Back
      </Link>
    </section>
  );
}
