import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: One user's details. */
export function UserDetailsPage() {
  useDocumentTitle('User details');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>User details</h1>
      </div>
    </section>
  );
}
