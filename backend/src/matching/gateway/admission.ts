import type { UserInfo, VideoErrorCode, VideoHandshakeRefusal } from '@serendip/proto';
import type { SeekerProfile } from '../coordinator/coordinator.messages.js';

/** What a banned account hears: at the handshake, at a start, and when a ban ends its search or call. */
export const ACCOUNT_RESTRICTED = 'Your account is restricted.';

/** What an account that never followed its sign-up link hears when it asks to be matched. */
export const CONFIRM_EMAIL_FIRST = 'Confirm your e-mail address to start matching.';

type Refusal<Code extends VideoErrorCode> = { refusal: { code: Code; reason: string } };
type Admitted = { user: UserInfo; gender: NonNullable<UserInfo['gender']>; userAge: number; firstName: string };

/** Who may open the video socket: a signed-in adult with a finished profile who is not banned. */
function holder(user: UserInfo | undefined): Admitted | Refusal<VideoHandshakeRefusal['code']> {
  if (!user) return { refusal: { code: 'unauthenticated', reason: 'Unauthorized, Please Log In.' } };
  if (user.isBanned) return { refusal: { code: 'banned', reason: ACCOUNT_RESTRICTED } };
  const { gender, userAge, firstName } = user;
  if (!user.isFinishedSteps || !gender || userAge === null || !firstName) {
    return { refusal: { code: 'signup-unfinished', reason: 'Finish signing up before matching.' } };
  }
  // spec 1: adults only. Completing the profile already refused minors; this holds if a birth date ever changes.
  if (userAge < 18) return { refusal: { code: 'signup-unfinished', reason: 'Serendip is for adults only.' } };
  return { user, gender, userAge, firstName };
}

/** The handshake's answer: undefined when the socket may open, otherwise why not. */
export function admitSocket(user: UserInfo | undefined): VideoHandshakeRefusal | undefined {
  const admitted = holder(user);
  return 'refusal' in admitted ? admitted.refusal : undefined;
}

/**
 * Who may start matching: whoever may hold the socket, once they have confirmed their e-mail address (an unconfirmed
 * one may be anyone's or nobody's: throwaway accounts would cost nothing). The profile the matchmaker uses comes from
 * here, the server's own record, never from what the client says.
 */
export function admit(
  user: UserInfo | undefined,
  deviceType: 'mobile' | 'desktop',
): { profile: SeekerProfile } | Refusal<VideoErrorCode> {
  const admitted = holder(user);
  if ('refusal' in admitted) return admitted;
  const { gender, userAge, firstName } = admitted;
  const { emailVerified, hideIp, country, avatar, isAdmin } = admitted.user;
  if (!emailVerified) return { refusal: { code: 'email-unconfirmed', reason: CONFIRM_EMAIL_FIRST } };
  return {
    profile: {
      gender,
      hideIp,
      age: userAge,
      country,
      // No id: the partner is given a per-match one at pairing, never the user id.
      public: { firstName, userAge, gender, country, avatar, isAdmin, deviceType },
    },
  };
}
