import type { EditProfileRequest } from '@serendip/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { errorsFromFailure, type FieldRules, type FormErrors, NO_ERRORS } from '../../shared/forms/form-errors';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { userUpdated } from '../auth/session.slice';
import { type ProfileApi, profileApi } from './profile-api';
import { PROFILE_MESSAGES } from './profile-messages';

export type ProfileField = keyof Required<EditProfileRequest>;

/** spec 4 "Profile save": idle, saving (form disabled, spinner), saved (green for 3 s), idle. */
export type ProfileSaveStatus = 'idle' | 'saving' | 'saved';

/** spec 9: the saved confirmation shows for 3000 ms. */
export const SAVED_FOR_MS = 3000;

export const PROFILE_FIELDS: FieldRules<ProfileField> = {
  firstName: { label: 'First name' },
  lastName: { label: 'Last name' },
  phoneNumber: { label: 'Phone number' },
  bio: { label: 'Bio' },
};

/** The profile form's one request and what the screen shows about it. */
export function useProfileSave(api: Pick<ProfileApi, 'editProfile'> = profileApi) {
  const dispatch = useAppDispatch();
  const [status, setStatus] = useState<ProfileSaveStatus>('idle');
  const [errors, setErrors] = useState<FormErrors<ProfileField>>(NO_ERRORS);
  // Counts refusals, so the form can move focus to the first problem after each one.
  const [refusals, setRefusals] = useState(0);
  const savedTimer = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(savedTimer.current), []);

  /** Sends the changes; true once the server stored them. */
  const save = useCallback(
    async (changes: EditProfileRequest): Promise<boolean> => {
      window.clearTimeout(savedTimer.current);
      setStatus('saving');
      setErrors(NO_ERRORS);
      try {
        dispatch(userUpdated(await api.editProfile(changes)));
        setStatus('saved');
        savedTimer.current = window.setTimeout(() => setStatus('idle'), SAVED_FOR_MS);
        return true;
      } catch (error) {
        setStatus('idle');
        if (isHttpError(error) && error.status === 400) {
          setErrors(errorsFromFailure(error, PROFILE_FIELDS, 'Some of these details could not be saved.'));
          setRefusals((count) => count + 1);
        } else if (isHttpError(error)) {
          // spec 8: any other answer than 200.
          notify.error(PROFILE_MESSAGES.profileSaveFailed);
        } else {
          // spec 8: a thrown error (no answer, or not a user) is only logged.
          logError('Profile save failed', error);
        }
        return false;
      }
    },
    [api, dispatch],
  );

  return { status, errors, refusals, save };
}
