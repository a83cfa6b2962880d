import type { EditAccountAnswer, EditAccountRequest, UserInfo } from '@serendip/proto';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { FormAlert } from '../../shared/forms/FormAlert';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { useSubmission } from '../../shared/forms/use-submission';
import { Button } from '../../ui/Button';
import { Input } from '../../ui/Input';
import { Switch } from '../../ui/Switch';
import { userUpdated } from '../auth/session.slice';
import { ACCOUNT_MESSAGES } from './account-messages';
import { useAccountServices } from './account-services';
import { DeleteAccount } from './DeleteAccount';
import { looksLikeEmail, maskEmail } from './email-address';

type AccountField = 'emailAddress' | 'currentPassword' | 'newPassword';

const FIELD_RULES: FieldRules<AccountField> = {
  emailAddress: { label: 'New e-mail address' },
  currentPassword: { label: 'Current password' },
  newPassword: { label: 'New password' },
};

/** spec 9: the saved confirmation stays 3000 ms. */
export const SAVED_CONFIRMATION_MS = 3000;

/** What the last save changed beyond the user itself, told under the form. */
interface SaveOutcome {
  pendingEmailAddress?: string;
  endedSessions?: number;
}

/** spec 2 General tab, titled Account Settings: e-mail (masked), current and new password, Save, delete account. */
export function GeneralTab({ user }: { user: UserInfo }) {
  const titleId = useId();
  return (
    <section className="account-panel" aria-labelledby={titleId}>
      <h3 id={titleId} className="account-panel__title">
        Account Settings
      </h3>
      <AccountForm user={user} />
      <DeleteAccount />
    </section>
  );
}

function AccountForm({ user }: { user: UserInfo }) {
  const dispatch = useAppDispatch();
  const { api } = useAccountServices();
  const { formRef, sending, errors, submit } = useSubmission<AccountField>();
  const [emailAddress, setEmailAddress] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [endOtherSessions, setEndOtherSessions] = useState(true);
  // Counts saves, so a second save within the 3 s restarts the confirmation's timer; null when it is not shown.
  const [savedRound, setSavedRound] = useState<number | null>(null);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  useEffect(() => {
    if (savedRound === null) return;
    const timer = window.setTimeout(() => setSavedRound(null), SAVED_CONFIRMATION_MS);
    return () => window.clearTimeout(timer);
  }, [savedRound]);

  function request(): EditAccountRequest {
    const email = emailAddress.trim();
    return {
      // spec 5: a blank e-mail keeps the current one, so it is not sent at all.
      ...(email !== '' && { emailAddress: email }),
      ...(currentPassword !== '' && { currentPassword }),
      // OWASP ASVS 3.3.3: after a password change, offer to end the other sessions.
      ...(newPassword !== '' && { newPassword, endOtherSessions }),
    };
  }

  function saved(answer: EditAccountAnswer) {
    dispatch(userUpdated(answer.user));
    setEmailAddress('');
    setCurrentPassword('');
    setNewPassword('');
    setOutcome({ pendingEmailAddress: answer.pendingEmailAddress, endedSessions: answer.endedSessions });
    setSavedRound((round) => (round ?? 0) + 1);
  }

  const onSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () =>
        emailAddress.trim() !== '' && !looksLikeEmail(emailAddress)
          ? { fields: { emailAddress: [ACCOUNT_MESSAGES.invalidEmail] }, form: [] }
          : null,
      async () => {
        setSavedRound(null);
        setOutcome(null);
        saved(await api.editAccount(request()));
      },
      (error) => errorsFromFailure(error, FIELD_RULES, ACCOUNT_MESSAGES.accountFailed),
    );

  const isSaved = savedRound !== null && !sending;
  return (
    <form ref={formRef} className="account-form" onSubmit={onSubmit} noValidate>
      <p className="account-form__current">
        Current e-mail: <strong className="account-form__email">{maskEmail(user.emailAddress)}</strong>
      </p>
      <Input
        label="New e-mail address"
        hint="Leave blank to keep your current e-mail."
        type="email"
        name="emailAddress"
        autoComplete="email"
        inputMode="email"
        value={emailAddress}
        onChange={(event) => setEmailAddress(event.target.value)}
        error={errors.fields.emailAddress?.join(' ')}
        disabled={sending}
      />
      <Input
        label="Current password"
        hint="Needed to change your e-mail or password."
        type="password"
        name="currentPassword"
        autoComplete="current-password"
        value={currentPassword}
        onChange={(event) => setCurrentPassword(event.target.value)}
        error={errors.fields.currentPassword?.join(' ')}
        disabled={sending}
      />
      <Input
        label="New password"
        hint="Leave blank to keep your current password."
        type="password"
        name="newPassword"
        autoComplete="new-password"
        value={newPassword}
        onChange={(event) => setNewPassword(event.target.value)}
        error={errors.fields.newPassword?.join(' ')}
        disabled={sending}
      />
      {newPassword !== '' && (
        <Switch
          label="Sign out of my other devices"
          description="Anyone signed in to your account elsewhere has to sign in again with the new password."
          checked={endOtherSessions}
          onCheckedChange={setEndOtherSessions}
          disabled={sending}
        />
      )}
      <FormAlert messages={errors.form} />
      <div className="account-form__actions">
        <Button
          type="submit"
          busy={sending}
          className={isSaved ? 'account-form__save account-form__save--saved' : 'account-form__save'}
        >
          {sending ? 'Saving…' : isSaved ? ACCOUNT_MESSAGES.saved : 'Save'}
        </Button>
      </div>
      <div role="status" className="account-form__outcome">
        {isSaved && <span className="visually-hidden">{ACCOUNT_MESSAGES.saved}</span>}
        {outcome?.pendingEmailAddress && (
          <p className="account-notice">
            We sent a confirmation link to <strong>{outcome.pendingEmailAddress}</strong>. Your e-mail changes to this
            address once you follow that link; until then you keep signing in with your current one.
          </p>
        )}
        {!!outcome?.endedSessions && (
          <p className="account-notice">
            Signed out of {outcome.endedSessions} other {outcome.endedSessions === 1 ? 'device' : 'devices'}.
          </p>
        )}
      </div>
    </form>
  );
}
