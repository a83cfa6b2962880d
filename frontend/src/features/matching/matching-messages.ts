/** spec 2 and spec 8: what the video match screen says, word for word ('appriciate' spelled right). */
export const MATCHING_TEXTS = {
  idle: "Click 'Find Match' to start.",
  waitingPermission: 'Waiting for camera and microphone permission',
  permissionDenied:
    'Camera & microphone access denied - Please enable camera and microphone access in your browser settings',
  leaveHint: 'Disconnect from matching and go back to filters.',
  chatEmpty: 'No messages yet. Say hello!',
  chatPlaceholder: 'Send a message...',
  /** Over the video for a moment when the partner ends the call, by the reason the server gives. */
  partnerSkipped: 'Your partner skipped',
  partnerLeft: 'Your partner left',
  connectionLost: 'Connection lost - finding someone new...',
  /** Over the video while the partner's connection is away within the grace period. */
  reconnecting: 'Reconnecting...',
  typing: (name: string) => `${name} is typing...`,
  leftChat: (name: string) => `${name} left the chat.`,
  thanksTitle: 'We appreciate it!',
  thanksText: 'Your feedback has been submitted we will continue your matching process soon.',
  preparingNext: 'Preparing your next match...',
  genderNote: 'Skipping this will result in matching with both genders',
  countrySearch: 'Search for a country...',
  detected: 'Detected',
  /** The server's reason for refusing startMatching to an unconfirmed address (videoError 'email-unconfirmed'). */
  confirmEmail: 'Confirm your e-mail address to start matching.',
  confirmEmailHow: 'Open the link we e-mailed you.',
  confirmEmailNotYet: 'Your address is not confirmed yet. Open the link we e-mailed you, then try again.',
  confirmEmailResendFailed: 'The link could not be sent. Try again in a minute.',
} as const;

/** spec 8 "Connection messages". */
export const CONNECTION_MESSAGES = {
  mediaFailed: 'Failed to access camera/microphone',
  establishFailed: 'Failed to establish connection',
  setupFailed: 'RTC Setup failed',
  offerFailed: 'Failed to process offer',
  answerFailed: 'Failed to process answer',
  rtcFailed: 'RTC Connection failed',
  tryingAnother: 'Connection Failed. Trying another match...',
  videoRetrying: 'Video Error Occurred. Retrying...',
  noPartnerCamera: (seconds: number) => `We couldn't detect the partner camera. Skipping in ${seconds}...`,
  issues: 'Connection issues detected',
  establishing: 'Establishing connection...',
} as const;
