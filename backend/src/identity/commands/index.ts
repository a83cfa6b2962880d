import { ChangeAvatarHandler } from './change-avatar/change-avatar.command.js';
import { CompleteSignupHandler } from './complete-signup/complete-signup.command.js';
import { DeleteAccountHandler } from './delete-account/delete-account.command.js';
import { EditAccountHandler } from './edit-account/edit-account.command.js';
import { EditProfileHandler } from './edit-profile/edit-profile.command.js';
import { EndOtherSessionsHandler } from './end-other-sessions/end-other-sessions.command.js';
import { EndSessionHandler } from './end-session/end-session.command.js';
import { EnsureAdminHandler } from './ensure-admin/ensure-admin.command.js';
import { LogInHandler } from './log-in/log-in.command.js';
import { LogOutHandler } from './log-out/log-out.command.js';
import { RefreshSessionHandler } from './refresh-session/refresh-session.command.js';
import { RequestPasswordResetHandler } from './request-password-reset/request-password-reset.command.js';
import { ResendVerificationHandler } from './resend-verification/resend-verification.command.js';
import { ResetPasswordHandler } from './reset-password/reset-password.command.js';
import { SetRoleHandler } from './set-role/set-role.command.js';
import { SetHideIpHandler } from './set-hide-ip/set-hide-ip.command.js';
import { SetTwoFactorHandler } from './set-two-factor/set-two-factor.command.js';
import { SignUpHandler } from './sign-up/sign-up.command.js';
import { UpdateLocationHandler } from './update-location/update-location.command.js';
import { VerifyEmailHandler } from './verify-email/verify-email.command.js';
import { VerifyLoginCodeHandler } from './verify-login-code/verify-login-code.command.js';

/** Every state change of identity: one command, one handler (DESIGN.md "The write side"). */
export const IDENTITY_COMMAND_HANDLERS = [
  SignUpHandler,
  VerifyEmailHandler,
  ResendVerificationHandler,
  CompleteSignupHandler,
  LogInHandler,
  VerifyLoginCodeHandler,
  RefreshSessionHandler,
  LogOutHandler,
  RequestPasswordResetHandler,
  ResetPasswordHandler,
  EndSessionHandler,
  EndOtherSessionsHandler,
  SetTwoFactorHandler,
  SetHideIpHandler,
  EnsureAdminHandler,
  SetRoleHandler,
  EditAccountHandler,
  DeleteAccountHandler,
  EditProfileHandler,
  ChangeAvatarHandler,
  UpdateLocationHandler,
];
