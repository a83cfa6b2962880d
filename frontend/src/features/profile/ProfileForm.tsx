import { type EditProfileRequest, PROFILE_LIMITS, type UserInfo } from '@serendip/proto';
import { Check } from 'lucide-react';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { FormAlert } from '../../shared/forms/FormAlert';
import { Button } from '../../ui/Button';
import { Input } from '../../ui/Input';
import { Textarea } from '../../ui/Textarea';
import { selectCurrentUser } from '../auth/session.selectors';
import { AvatarUploader } from './AvatarUploader';
import { PhoneField } from './PhoneField';
import { PROFILE_MESSAGES } from './profile-messages';
import { type HeadingLevel, ProfileDetails } from './ProfileDetails';
import { PROFILE_FIELDS, type ProfileField, useProfileSave } from './use-profile-save';
import './profile.css';

export interface ProfileFormProps {
  /** The level of the form's section headings, to fit the page or dialog around it (default 2). */
  headingLevel?: HeadingLevel;
}

/**
 * The signed-in user's profile (spec 2 "Profile settings screen"): picture, editable names, phone and bio, and the
 * details that cannot change. No page chrome: the settings page and the account dialog's Profile tab both hold it.
 */
export function ProfileForm({ headingLevel = 2 }: ProfileFormProps) {
  const user = useAppSelector(selectCurrentUser);
  const pictureHeadingId = useId();
  if (!user) return null;
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="profile-form">
      <section className="profile-form__section" aria-labelledby={pictureHeadingId}>
        <Heading id={pictureHeadingId} className="profile-form__heading">
          Profile picture
        </Heading>
        <AvatarUploader />
      </section>
      <ProfileEditor user={user} headingLevel={headingLevel} />
      <ProfileDetails user={user} headingLevel={headingLevel} />
    </div>
  );
}

type Edits = Partial<Record<ProfileField, string>>;

function storedValues(user: UserInfo): Record<ProfileField, string> {
  return {
    firstName: user.firstName ?? '',
    lastName: user.lastName ?? '',
    phoneNumber: user.phoneNumber ?? '',
    bio: user.bio ?? '',
  };
}

/** Only what differs from the stored profile is sent; the server trims, so spaces alone change nothing. */
function changedFields(stored: Record<ProfileField, string>, edits: Edits): EditProfileRequest {
  const changes: EditProfileRequest = {};
  for (const field of Object.keys(edits) as ProfileField[]) {
    const value = edits[field]?.trim();
    if (value !== undefined && value !== stored[field]) changes[field] = value;
  }
  return changes;
}

function ProfileEditor({ user, headingLevel }: { user: UserInfo; headingLevel: HeadingLevel }) {
  const { status, errors, refusals, save } = useProfileSave();
  // Only the fields the user touched; the rest show the stored profile, so an avatar update keeps what is typed.
  const [edits, setEdits] = useState<Edits>({});
  // Remounts the phone field after a save, so it shows the number as the server stored it.
  const [phoneVersion, setPhoneVersion] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const Heading = `h${headingLevel}` as const;

  useEffect(() => {
    if (refusals === 0) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"], [data-form-alert]')?.focus();
  }, [refusals]);

  const stored = storedValues(user);
  const value = (field: ProfileField) => edits[field] ?? stored[field];
  const edit = (field: ProfileField) => (next: string) => setEdits((current) => ({ ...current, [field]: next }));
  const changes = changedFields(stored, edits);
  const dirty = Object.keys(changes).length > 0;
  const saving = status === 'saving';
  const fieldError = (field: ProfileField) => errors.fields[field]?.join(' ');

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving || !dirty) return;
    if (await save(changes)) {
      setEdits({});
      if (changes.phoneNumber !== undefined) setPhoneVersion((version) => version + 1);
    }
  };

  return (
    <section className="profile-form__section" aria-labelledby={headingId}>
      <Heading id={headingId} className="profile-form__heading">
        Personal information
      </Heading>
      <form ref={formRef} className="profile-form__fields" noValidate onSubmit={(event) => void submit(event)}>
        <div className="profile-form__names">
          <Input
            label={PROFILE_FIELDS.firstName.label}
            name="firstName"
            autoComplete="given-name"
            placeholder="Enter first name"
            maxLength={PROFILE_LIMITS.nameMaxLength}
            disabled={saving}
            value={value('firstName')}
            onChange={(event) => edit('firstName')(event.target.value)}
            error={fieldError('firstName')}
          />
          <Input
            label={PROFILE_FIELDS.lastName.label}
            name="lastName"
            autoComplete="family-name"
            placeholder="Enter last name"
            maxLength={PROFILE_LIMITS.nameMaxLength}
            disabled={saving}
            value={value('lastName')}
            onChange={(event) => edit('lastName')(event.target.value)}
            error={fieldError('lastName')}
          />
        </div>
        <PhoneField
          key={phoneVersion}
          label={PROFILE_FIELDS.phoneNumber.label}
          initialNumber={user.phoneNumber}
          userCountry={user.country}
          disabled={saving}
          onChange={edit('phoneNumber')}
          error={fieldError('phoneNumber')}
        />
        <Textarea
          label={PROFILE_FIELDS.bio.label}
          name="bio"
          placeholder="Enter your bio"
          maxLength={PROFILE_LIMITS.bioMaxLength}
          disabled={saving}
          value={value('bio')}
          onChange={(event) => edit('bio')(event.target.value)}
          hint={`${value('bio').length} / ${PROFILE_LIMITS.bioMaxLength}`}
          error={fieldError('bio')}
        />
        <FormAlert messages={errors.form} />
        <div className="profile-form__actions">
          <Button
            type="submit"
            busy={saving}
            disabled={status === 'idle' && !dirty}
            className={status === 'saved' ? 'profile-form__save profile-form__save--saved' : 'profile-form__save'}
          >
            {status === 'saved' && <Check aria-hidden="true" />}
            {status === 'saved' ? PROFILE_MESSAGES.saved : 'Save Changes'}
          </Button>
          <p className="visually-hidden" role="status">
            {status === 'saved' ? PROFILE_MESSAGES.saved : ''}
          </p>
        </div>
      </form>
    </section>
  );
}
