import { useDocumentTitle } from '../../../shared/use-document-title';

/** Placeholder while the page is built: The user list. */
export function UserManagementPage() {
  useDocumentTitle('User Management');
  return (
    <section className="dash-page">
      <div className="dash-page__head">
        <h1>User Management</h1>
      </div>
    </section>
  );
}
