import type { Gender } from '@serendip/proto';
import { ageOn, MINIMUM_AGE, parseCalendarDate, UNDER_AGE_MESSAGE } from '../../features/auth/age';

export interface ProfileDraft {
  firstName: string;
  lastName: string;
  username: string;
  gender: Gender | '';
  birthDate: string;
}

export type ProfileField = keyof ProfileDraft;

export const PROFILE_MESSAGES = {
  firstNameMissing: 'Enter your first name.',
  lastNameMissing: 'Enter your last name.',
  usernameMissing: 'Choose a username.',
  genderMissing: 'Choose Male or Female.',
  birthDateMissing: 'Enter your birth date.',
  birthDateInvalid: 'Enter a real birth date.',
} as const;

/** The continue-signup form's own checks; spec 1: adults only, so an under-18 birth date goes nowhere. */
export function profileProblems(draft: ProfileDraft, today: Date): Partial<Record<ProfileField, string[]>> {
  const problems: Partial<Record<ProfileField, string[]>> = {};
  if (draft.firstName.trim() === '') problems.firstName = [PROFILE_MESSAGES.firstNameMissing];
  if (draft.lastName.trim() === '') problems.lastName = [PROFILE_MESSAGES.lastNameMissing];
  if (draft.username.trim() === '') problems.username = [PROFILE_MESSAGES.usernameMissing];
  if (draft.gender === '') problems.gender = [PROFILE_MESSAGES.genderMissing];
  const birthDate = birthDateProblem(draft.birthDate, today);
  if (birthDate) problems.birthDate = [birthDate];
  return problems;
}

function birthDateProblem(text: string, today: Date): string | null {
  if (text === '') return PROFILE_MESSAGES.birthDateMissing;
  const date = parseCalendarDate(text);
  if (!date) return PROFILE_MESSAGES.birthDateInvalid;
  const age = ageOn(date, today);
  if (age < 0 || age > 130) return PROFILE_MESSAGES.birthDateInvalid;
  return age < MINIMUM_AGE ? UNDER_AGE_MESSAGE : null;
}
