import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { EditProfileRequest, UserInfo } from '@serendip/proto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { invalidField } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { Accounts } from '../../accounts/accounts.js';

export class EditProfile extends Command<UserInfo> {
  constructor(
    readonly userId: string,
    readonly request: EditProfileRequest,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/** The profile a person shows others (spec 5 "Profile form"): names, phone, bio. Only what differs is recorded. */
@CommandHandler(EditProfile)
export class EditProfileHandler implements ICommandHandler<EditProfile> {
  constructor(private readonly accounts: Accounts) {}

  async execute({ userId, request, meta }: EditProfile): Promise<UserInfo> {
    const edit = {
      firstName: request.firstName?.trim(),
      lastName: request.lastName?.trim(),
      phoneNumber: request.phoneNumber === undefined ? undefined : normalisePhone(request.phoneNumber),
      bio: request.bio?.trim(),
    };
    const position = await this.accounts.run(userId, { type: 'EditProfile', ...edit }, meta);
    return this.accounts.userInfoAfter(userId, position, meta.now);
  }
}

/** '' clears the number; anything else must be a real, possible number, stored as E.164 (+17021234567). */
function normalisePhone(input: string): string {
  const text = input.trim();
  if (text === '') return '';
  const phone = parsePhoneNumberFromString(text.startsWith('+') ? text : `+${text}`);
  if (!phone?.isValid()) {
    throw invalidField(
      'phoneNumber',
      'enter a valid phone number with its country code, e.g. +1 702 123 4567',
      'invalid-phone',
    );
  }
  return phone.number;
}
