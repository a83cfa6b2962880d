import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: Live counters and charts. */
export function OverviewPage() {
  useDocumentTitle('Overview');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>Overview</h1>
      </div>
    </section>
  );
}
