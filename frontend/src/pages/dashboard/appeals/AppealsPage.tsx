import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: The appeals queue. */
export function AppealsPage() {
  useDocumentTitle('Appeals');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>Appeals</h1>
      </div>
    </section>
  );
}
