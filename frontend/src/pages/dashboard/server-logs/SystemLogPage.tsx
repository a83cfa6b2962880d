import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: The server status and the log. */
export function SystemLogPage() {
  useDocumentTitle('System Log');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>System Log</h1>
      </div>
    </section>
  );
}
