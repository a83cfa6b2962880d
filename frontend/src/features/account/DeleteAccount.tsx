import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { FormAlert } from '../../shared/forms/FormAlert';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { useSubmission } from '../../shared/forms/use-submission';
import { notify } from '../../shared/toasts/notify';
import { Button } from '../../ui/Button';
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '../../ui/Dialog';
import { Input } from '../../ui/Input';
import { logoutRequested } from '../auth/session.slice';
import { ACCOUNT_MESSAGES } from './account-messages';
import { useAccountServices } from './account-services';

const FIELD_RULES: FieldRules<'currentPassword'> = { currentPassword: { label: 'Current password' } };

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
  const { formRef, sending, errors, submit } = useSubmission<'currentPassword'>();
  const [currentPassword, setCurrentPassword] = useState('');

  useEffect(() => {
    if (!deleted) return;
    // spec 4 "Logout", through the session saga: endpoint, forget the session, full page load of /auth/login.
    const timer = window.setTimeout(() => dispatch(logoutRequested()), LOGOUT_AFTER_DELETE_MS);
    return () => window.clearTimeout(timer);
  }, [deleted, dispatch]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () =>
        currentPassword === ''
          ? { fields: { currentPassword: ['Enter your current password to delete the account.'] }, form: [] }
          : null,
      async () => {
        await api.deleteAccount({ currentPassword });
        notify.success(ACCOUNT_MESSAGES.accountDeleted);
        onDeleted();
      },
      (error) => errorsFromFailure(error, FIELD_RULES, ACCOUNT_MESSAGES.accountFailed),
    );

  return (
    <form ref={formRef} className="account-form" onSubmit={onSubmit} noValidate>
      <div className="account-danger__warning">
        <TriangleAlert aria-hidden="true" focusable="false" />
        <ul>
          <li>You are signed out on every device.</li>
          <li>Your profile, e-mail address and other personal data are erased.</li>
          <li>Your account cannot be recovered.</li>
        </ul>
      </div>
      <Input
        label="Current password"
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        required
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
        error={errors.fields.currentPassword?.join(' ')}
        disabled={sending || deleted}
      />
      <FormAlert messages={errors.form} />
      <DialogFooter>
        {!deleted && (
          <DialogClose asChild>
            <Button variant="quiet" disabled={sending}>
              Cancel
            </Button>
          </DialogClose>
        )}
        <Button type="submit" variant="danger" busy={sending || deleted}>
          {deleted ? 'Signing you out…' : sending ? 'Deleting…' : 'Delete my account'}
        </Button>
      </DialogFooter>
    </form>
  );
}
