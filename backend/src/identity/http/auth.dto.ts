import { Transform, Type } from 'class-transformer';
import {
  IsBoolean,
  IsEmail,
  IsIn,
  IsISO8601,
  IsNotEmpty,
  IsString,
  IsUUID,
  Length,
  Matches,
  MaxLength,
} from 'class-validator';
import { canonicalEmail } from '../accounts/email-address.js';

/** An address as one spelling per mailbox (NFKC, punycode domain) before it is validated and used. */
export const AsCanonicalEmail = () =>
  Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? canonicalEmail(value) : value));

/** Bodies of the identity routes; the global ValidationPipe refuses unknown fields and answers 400 per field. */
export class SignupDto {
  @AsCanonicalEmail()
  @IsEmail({}, { message: 'emailAddress must be an e-mail address' })
  @MaxLength(254)
  emailAddress: string;

  // Length and common-password rules are checked by the password policy, with clearer messages.
  @IsString()
  @MaxLength(1024)
  password: string;
}

export class LoginDto {
  @AsCanonicalEmail()
  @IsEmail({}, { message: 'emailAddress must be an e-mail address' })
  @MaxLength(254)
  emailAddress: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(1024)
  password: string;
}

export class LoginVerifyDto {
  @IsUUID()
  challengeId: string;

  @Matches(/^\d{6}$/, { message: 'code must be the 6 digits from the e-mail' })
  code: string;
}

export class VerifyEmailDto {
  @IsString()
  @Length(20, 200)
  token: string;
}

export class CompleteSignupDto {
  @IsString()
  @Length(1, 50)
  @Matches(/^[^<>]*$/, { message: 'firstName must not contain < or >' })
  firstName: string;

  @IsString()
  @Length(1, 50)
  @Matches(/^[^<>]*$/, { message: 'lastName must not contain < or >' })
  lastName: string;

  @IsString()
  @Matches(/^[A-Za-z0-9_.]{3,30}$/, { message: 'username must be 3 to 30 letters, digits, dots or underscores' })
  username: string;

  @IsIn(['male', 'female'], { message: 'gender must be male or female' })
  gender: 'male' | 'female';

  @IsISO8601({ strict: true }, { message: 'birthDate must be a date (YYYY-MM-DD)' })
  @Matches(/^\d{4}-\d{2}-\d{2}$/, { message: 'birthDate must be a date (YYYY-MM-DD)' })
  @Type(() => String)
  birthDate: string;
}

export class PasswordResetDto {
  @AsCanonicalEmail()
  @IsEmail({}, { message: 'emailAddress must be an e-mail address' })
  @MaxLength(254)
  emailAddress: string;
}

export class ResetPasswordDto {
  @IsString()
  @Length(20, 200)
  token: string;

  @IsString()
  @MaxLength(1024)
  newPassword: string;
}

export class DeleteSessionDto {
  @IsUUID()
  sessionId: string;
}

/** POST /user/privacy: "hide my IP" (DESIGN.md "Matching"). */
export class PrivacySettingsDto {
  @IsBoolean({ message: 'hideIp must be true or false' })
  hideIp!: boolean;
}

/** POST /user/disable-twofac: whoever holds only the session must not remove the second factor. */
export class DisableTwoFactorDto {
  @IsString()
  @IsNotEmpty({ message: 'currentPassword is needed to turn two-factor off' })
  @MaxLength(1024)
  currentPassword!: string;
}
