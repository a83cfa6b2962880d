import { TriangleAlert } from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Dialog, DialogContent, DialogTrigger } from '../../ui/Dialog';
import { logoutRequested } from '../auth/session.slice';
import { ACCOUNT_MESSAGES } from './account-messages';
import { useAccountServices } from './account-services';
import { PasswordConfirmForm } from './PasswordConfirmForm';

/**
 * The account is gone once the server answers, but the logout ends in a full page load that would wipe the toast at
 * once: this long to read it first.
 */
export const LOGOUT_AFTER_DELETE_MS = 1500;

/** spec 2 "delete account", spec 7: POST /user/delete-account, then logout. */
export function DeleteAccount() {
  const titleId = useId();
  const [open, setOpen] = useState(false);
  const [deleted, setDeleted] = useState(false);
  return (
    <section className="account-danger" aria-labelledby={titleId}>
      <div className="account-danger__text">
        <h4 id={titleId} className="account-danger__title">
          Delete account
        </h4>
        <p>Permanently delete your account and everything personal in it.</p>
      </div>
      <Dialog open={open} onOpenChange={(next) => setOpen(next || deleted)}>
        <DialogTrigger asChild>
          <Button variant="danger">Delete account</Button>
        </DialogTrigger>
        <DialogContent
          title="Delete your account?"
          description="This cannot be undone."
          size="sm"
          closeLabel="Keep my account"
          dismissible={!deleted}
        >
          <ConfirmDeletion deleted={deleted} onDeleted={() => setDeleted(true)} />
        </DialogContent>
      </Dialog>
    </section>
  );
}

function ConfirmDeletion({ deleted, onDeleted }: { deleted: boolean; onDeleted: () => void }) {
  const dispatch = useAppDispatch();
  const { api } = useAccountServices();

  useEffect(() => {
    if (!deleted) return;
    // spec 4 "Logout", through the session saga: endpoint, forget the session, full page load of /auth/login.
    const timer = window.setTimeout(() => dispatch(logoutRequested()), LOGOUT_AFTER_DELETE_MS);
    return () => window.clearTimeout(timer);
  }, [deleted, dispatch]);

  return (
    <PasswordConfirmForm
      missing="Enter your current password to delete the account."
      confirm={async (currentPassword) => {
        await api.deleteAccount({ currentPassword });
        notify.success(ACCOUNT_MESSAGES.accountDeleted);
        onDeleted();
      }}
      fallback={ACCOUNT_MESSAGES.accountFailed}
      labels={{ submit: 'Delete my account', sending: 'Deleting…', done: 'Signing you out…' }}
      done={deleted}
    >
      <div className="account-danger__warning">
        <TriangleAlert aria-hidden="true" focusable="false" />
        <ul>
          <li>You are signed out on every device.</li>
          <li>Your profile, e-mail address and other personal data are erased.</li>
          <li>Your account cannot be recovered.</li>
        </ul>
      </div>
    </PasswordConfirmForm>
  );
}
