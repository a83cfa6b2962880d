import type { UserInfo, VideoHandshakeRefusal } from '@serendip/proto';
import type { SeekerProfile } from '../coordinator/coordinator.messages.js';

/**
 * Who may open the video socket: a signed-in adult with a finished profile who is not banned. The profile
 * the matchmaker uses comes from here, the server's own record, never from what the client says.
 */
export function admit(
  user: UserInfo | undefined,
  deviceType: 'mobile' | 'desktop',
): { profile: SeekerProfile } | { refusal: VideoHandshakeRefusal } {
  if (!user) return { refusal: { code: 'unauthenticated', reason: 'Unauthorized, Please Log In.' } };
  if (user.isBanned) return { refusal: { code: 'banned', reason: 'Your account is restricted.' } };
  const { gender, userAge, firstName } = user;
  if (!user.isFinishedSteps || !gender || userAge === null || !firstName) {
    return { refusal: { code: 'signup-unfinished', reason: 'Finish signing up before matching.' } };
  }
  // spec 1: adults only. Completing the profile already refused minors; this holds if a birth date ever changes.
  if (userAge < 18) return { refusal: { code: 'signup-unfinished', reason: 'Serendip is for adults only.' } };
  return {
    profile: {
      gender,
      hideIp: user.hideIp,
      age: userAge,
      country: user.country,
      public: {
        _id: user._id,
        firstName,
        userAge,
        gender,
        country: user.country,
        avatar: user.avatar,
        isAdmin: user.isAdmin,
        deviceType,
      },
    },
  };
}
