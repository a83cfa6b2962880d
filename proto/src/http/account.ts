import { z } from 'zod/mini';
import { userInfoSchema } from './auth.js';

/**
 * Profile and account contracts (spec 2 "Profile settings screen", "Account settings dialog", spec 7).
 * Paths are under /api. The server validates every body itself.
 */

/** POST /user/edit-profile. Every field is optional (spec 5: no required fields); '' clears it. */
export interface EditProfileRequest {
  firstName?: string;
  lastName?: string;
  /** E.164, e.g. +17021234567; '' clears it. */
  phoneNumber?: string;
  bio?: string;
}

/** Limits the server enforces on a profile (the client shows them as hints). */
export const PROFILE_LIMITS = {
  nameMaxLength: 50,
  bioMaxLength: 500,
  /** spec 9: phone digits up to 15 (E.164). */
  phoneMaxDigits: 15,
} as const;

/**
 * POST /user/edit-account. A new e-mail or password needs the current password. A new e-mail is only used once its
 * owner follows the link mailed to it; `endOtherSessions` ends every other session after a password change.
 */
export interface EditAccountRequest {
  emailAddress?: string;
  currentPassword?: string;
  newPassword?: string;
  endOtherSessions?: boolean;
}

export const editAccountAnswerSchema = z.object({
  /** The user as now stored (the e-mail stays the old one until the new one is confirmed). */
  user: userInfoSchema,
  /** The address a confirmation link was sent to, when the e-mail is changing. */
  pendingEmailAddress: z.optional(z.string()),
  /** Sessions that were ended because of a password change. */
  endedSessions: z.optional(z.int().check(z.gte(0))),
});
export type EditAccountAnswer = z.infer<typeof editAccountAnswerSchema>;

/** POST /user/delete-account: needs the current password; then the client logs out. */
export interface DeleteAccountRequest {
  currentPassword: string;
}

/** POST /auth/geolocation (spec 7): the server finds the place from the request's own address; no body needed. */
export interface GeolocationAnswer {
  message: string;
  country: string | null;
  city: string | null;
}

/** POST /user/privacy: "hide my IP" relays this user's calls through the SFU. Answers the UserInfo. */
export interface PrivacySettingsRequest {
  hideIp: boolean;
}

export const ACCOUNT_PATHS = {
  privacy: '/api/user/privacy',
  editProfile: '/api/user/edit-profile',
  editAccount: '/api/user/edit-account',
  deleteAccount: '/api/user/delete-account',
  geolocation: '/api/auth/geolocation',
  /** tus endpoint for avatar uploads (resumable). */
  avatarUploads: '/api/uploads/avatars',
} as const;
