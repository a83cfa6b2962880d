import { Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { EditProfileRequest, UserInfo } from '@serendip/proto';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { type CommandMetadata, executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { badRequest } from '../accounts/identity.service.js';
import { readUserInfo } from '../accounts/user-info.js';
import { account, type AccountCommand } from '../domain/account.decider.js';
import { accountStream } from '../domain/account.events.js';

/** The profile a person shows others (issue 6): names, phone, bio, avatar. Rules are the decider's. */
@Injectable()
export class ProfileService {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  async editProfile(userId: string, request: EditProfileRequest, meta: CommandMetadata): Promise<UserInfo> {
    const edit = {
      firstName: request.firstName?.trim(),
      lastName: request.lastName?.trim(),
      phoneNumber: request.phoneNumber === undefined ? undefined : normalisePhone(request.phoneNumber),
      bio: request.bio?.trim(),
    };
    return this.run(userId, { type: 'EditProfile', ...edit }, meta);
  }

  /** Records a new avatar (the upload flow stores the picture first). */
  changeAvatar(userId: string, avatarUrl: string, meta: CommandMetadata): Promise<UserInfo> {
    return this.run(userId, { type: 'ChangeAvatar', avatarUrl }, meta);
  }

  private async run(userId: string, command: AccountCommand, meta: CommandMetadata): Promise<UserInfo> {
    const { position } = await executeDecider(this.core, accountStream(userId), account, command, meta);
    if (position) await this.core.projections.caughtUpTo(position, 5000);
    const user = await readUserInfo(this.db, userId, meta.now);
    if (!user) throw new UnauthorizedException();
    return user;
  }
}

/** '' clears the number; anything else must be a real, possible number, stored as E.164 (+17021234567). */
function normalisePhone(input: string): string {
  const text = input.trim();
  if (text === '') return '';
  const phone = parsePhoneNumberFromString(text.startsWith('+') ? text : `+${text}`);
  if (!phone?.isValid()) {
    throw badRequest(['phoneNumber', 'enter a valid phone number with its country code, e.g. +1 702 123 4567']);
  }
  return phone.number;
}
