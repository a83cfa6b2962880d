/** spec 4, 8: what the profile form and the avatar uploader say, word for word. */
export const PROFILE_MESSAGES = {
  /** spec 4: also the account form's confirmation. */
  saved: 'Changes Saved Successfully',
  profileSaveFailed: 'Session Expired! Please Refresh The Page.',
  avatarUpdated: 'Profile picture updated successfully',
  avatarServerFailed: 'Failed to update profile picture on the server',
  avatarUploadFailed: 'Failed to upload image',
} as const;
