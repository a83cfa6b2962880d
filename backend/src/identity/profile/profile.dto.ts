import { PROFILE_LIMITS } from '@serendip/proto';
import { IsBoolean, IsEmail, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';
import { AsCanonicalEmail } from '../http/auth.dto.js';

// Plain text only: the profile is shown to strangers, so markup never gets in.
const NO_MARKUP = /^[^<>]*$/;

/** POST /user/edit-profile: every field optional (spec 5), '' clears one. */
export class EditProfileDto {
  @IsOptional()
  @IsString()
  @MaxLength(PROFILE_LIMITS.nameMaxLength)
  @Matches(NO_MARKUP, { message: 'firstName must not contain < or >' })
  firstName?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PROFILE_LIMITS.nameMaxLength)
  @Matches(NO_MARKUP, { message: 'lastName must not contain < or >' })
  lastName?: string;

  // Parsed and normalised to E.164 with libphonenumber by the service, which names the problem.
  @IsOptional()
  @IsString()
  @MaxLength(32)
  phoneNumber?: string;

  @IsOptional()
  @IsString()
  @MaxLength(PROFILE_LIMITS.bioMaxLength)
  @Matches(NO_MARKUP, { message: 'bio must not contain < or >' })
  bio?: string;
}

/** POST /user/edit-account: blank fields change nothing (spec 5: a blank e-mail keeps the current one). */
export class EditAccountDto {
  @IsOptional()
  @ValidateIf((o: EditAccountDto) => o.emailAddress !== '')
  @AsCanonicalEmail()
  @IsEmail({}, { message: 'emailAddress must be an e-mail address' })
  @MaxLength(254)
  emailAddress?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  currentPassword?: string;

  @IsOptional()
  @IsString()
  @MaxLength(1024)
  newPassword?: string;

  @IsOptional()
  @IsBoolean()
  endOtherSessions?: boolean;
}

export class DeleteAccountDto {
  @IsString()
  @IsNotEmpty({ message: 'currentPassword is needed to delete the account' })
  @MaxLength(1024)
  currentPassword: string;
}
