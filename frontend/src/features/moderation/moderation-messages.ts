/** spec 2 "Banned-account screen", spec 5 and 8: what the banned screen says, word for word ({email}: support). */
export const BANNED_SCREEN_TEXTS = {
  title: 'Account Restricted',
  statusCard: 'Ban Status',
  appealButton: 'Appeal Decision',
  appealPlaceholder: 'Explain why you believe this ban should be reconsidered...',
  submitAppeal: 'Submit Appeal',
  // The spec's "further informations", spelled right.
  alreadyAppealed:
    "You've appealed for this restriction already, you can see further information in the Ban History page.",
  viewDetails: 'View Details',
  errorTitle: 'Error',
  loadFailed: 'An error occurred while checking your ban status. Please contact us at {email} for further information.',
  permanent: 'Permanent',
  expired: 'Expired',
  unknownBanner: 'Unknown',
} as const;

export const APPEAL_TOASTS = {
  blank: 'Please provide a reason for your appeal.',
  submitted: 'Appeal submitted successfully.',
  failed: 'Failed to submit appeal.',
} as const;
