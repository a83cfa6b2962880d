import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: The report table. */
export function ReportsPage() {
  useDocumentTitle('Reports');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>Reports</h1>
      </div>
    </section>
  );
}
