import type { Gender, UserInfo } from '@serendip/proto';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { calendarDate, MINIMUM_AGE } from '../../features/auth/age';
import { authApi } from '../../features/auth/auth-api';
import { selectCurrentUser } from '../../features/auth/session.selectors';
import { signupStepsFinished, userUpdated } from '../../features/auth/session.slice';
import { safeRedirectTarget } from '../../features/auth/safe-redirect';
import { errorsFromFailure, type FieldRules } from '../../shared/forms/form-errors';
import { FormAlert } from '../../shared/forms/FormAlert';
import { SubmitButton } from '../../shared/forms/SubmitButton';
import { TextField } from '../../shared/forms/TextField';
import { useSubmission } from '../../shared/forms/use-submission';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import { AuthCard } from './AuthCard';
import { GenderChoice } from './GenderChoice';
import { type ProfileDraft, type ProfileField, profileProblems } from './profile-checks';

const FIELDS: FieldRules<ProfileField> = {
  firstName: { label: 'First name' },
  lastName: { label: 'Last name' },
  username: { label: 'Username' },
  gender: { label: 'Gender' },
  // The server's under-age refusal names no field: 'you must be 18 or older to use Serendip'.
  birthDate: { label: 'Birth date', alsoMatches: /18 or older|birth/i },
};

const EMPTY_DRAFT: ProfileDraft = { firstName: '', lastName: '', username: '', gender: '', birthDate: '' };

/** /auth/signup/cs (spec 2, 4): the profile a new account owes before anything else, behind the session guard. */
export function ContinueSignupPage() {
  useDocumentTitle('Finish signing up');
  const user = useAppSelector(selectCurrentUser);
  // Decided on arrival: finishing the form here makes the user finished too, and that must not send them back.
  const [finishedOnArrival] = useState(() => user?.isFinishedSteps === true);
  useSendBack(finishedOnArrival);

  if (!user || finishedOnArrival) return null;
  return <ProfileForm user={user} />;
}

/** spec 4: a user who already finished these steps is sent back in history, or home when there is none. */
function useSendBack(sendBack: boolean) {
  const navigate = useNavigate();
  const { key } = useLocation();
  // Going back is not idempotent: React's development double effect must not step back twice.
  const sent = useRef(false);
  useEffect(() => {
    if (!sendBack || sent.current) return;
    sent.current = true;
    // The router gives the entry the app was opened on the key 'default': there is nothing of ours behind it.
    if (key !== 'default') void navigate(-1);
    else void navigate('/', { replace: true });
  }, [sendBack, key, navigate]);
}

function ProfileForm({ user }: { user: UserInfo }) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  const { formRef, sending, errors, submit } = useSubmission<ProfileField>();
  const [draft, setDraft] = useState<ProfileDraft>(EMPTY_DRAFT);
  const today = new Date();
  const edit = (field: ProfileField) => (value: string) => setDraft((current) => ({ ...current, [field]: value }));

  const handleSubmit = (event: FormEvent<HTMLFormElement>) =>
    submit(
      event,
      () => ({ fields: profileProblems(draft, new Date()), form: [] }),
      async () => {
        const updated = await authApi.completeSignup({
          firstName: draft.firstName.trim(),
          lastName: draft.lastName.trim(),
          username: draft.username.trim(),
          gender: draft.gender as Gender,
          birthDate: draft.birthDate,
        });
        dispatch(userUpdated(updated));
        dispatch(signupStepsFinished());
        notify.success(`Welcome to Serendip, ${updated.firstName ?? draft.firstName.trim()}!`);
        void navigate(safeRedirectTarget(redirect), { replace: true });
      },
      (error) => errorsFromFailure(error, FIELDS, 'We could not save your profile. Please try again.'),
    );

  return (
    <AuthCard
      title="Tell us about you"
      intro={
        user.emailVerified ? (
          <p>One last step before you start meeting people.</p>
        ) : (
          <p>
            We sent a verification link to <strong>{user.emailAddress}</strong>. You can finish your profile while it
            arrives.
          </p>
        )
      }
    >
      <form ref={formRef} className="form" noValidate onSubmit={handleSubmit}>
        <div className="field-row">
          <TextField
            name="firstName"
            label={FIELDS.firstName.label}
            autoComplete="given-name"
            required
            value={draft.firstName}
            onChange={(event) => edit('firstName')(event.target.value)}
            errors={errors.fields.firstName}
          />
          <TextField
            name="lastName"
            label={FIELDS.lastName.label}
            autoComplete="family-name"
            required
            value={draft.lastName}
            onChange={(event) => edit('lastName')(event.target.value)}
            errors={errors.fields.lastName}
          />
        </div>
        <TextField
          name="username"
          label={FIELDS.username.label}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={draft.username}
          onChange={(event) => edit('username')(event.target.value)}
          hint="Letters, digits, dots or underscores. Others see your first name, not this."
          errors={errors.fields.username}
        />
        <GenderChoice value={draft.gender} onChange={edit('gender')} errors={errors.fields.gender} />
        <TextField
          name="birthDate"
          label={FIELDS.birthDate.label}
          type="date"
          autoComplete="bday"
          required
          min="1900-01-01"
          max={calendarDate(today, MINIMUM_AGE)}
          value={draft.birthDate}
          onChange={(event) => edit('birthDate')(event.target.value)}
          hint={`You must be ${MINIMUM_AGE} or older. Your birth date is never shown to others.`}
          errors={errors.fields.birthDate}
        />
        <FormAlert messages={errors.form} />
        <SubmitButton busy={sending} busyLabel="Saving your profile…">
          Finish and start
        </SubmitButton>
      </form>
    </AuthCard>
  );
}
