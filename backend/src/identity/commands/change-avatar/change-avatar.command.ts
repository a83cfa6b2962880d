import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';
import { type AvatarImage, toAvatarImage } from '../../avatars/avatar-image.js';
import {
  AVATAR_STORAGE,
  type AvatarStorage,
  avatarNameOf,
  avatarUrl,
  newAvatarName,
} from '../../avatars/avatar-storage.js';

export type ChangeAvatarResult =
  { ok: true; user: UserInfo } | { ok: false; problem: Extract<AvatarImage, { ok: false }>['problem'] };

export class ChangeAvatar extends Command<ChangeAvatarResult> {
  constructor(
    readonly userId: string,
    readonly bytes: Buffer,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * A new profile picture (spec 5), whatever transport brought its bytes: normalised, stored under a fresh name,
 * recorded on the account, and the picture it replaces removed.
 */
@CommandHandler(ChangeAvatar)
export class ChangeAvatarHandler implements ICommandHandler<ChangeAvatar> {
  private readonly logger = new Logger(ChangeAvatarHandler.name);

  constructor(
    @Inject(AVATAR_STORAGE) private readonly storage: AvatarStorage,
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  async execute({ userId, bytes, meta }: ChangeAvatar): Promise<ChangeAvatarResult> {
    const image = await toAvatarImage(bytes);
    if (!image.ok) return image;
    const previous = await this.db
      .selectFrom('users')
      .select('avatar_url')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const name = newAvatarName();
    await this.storage.save(name, image.webp);
    let user: UserInfo;
    try {
      const position = await this.accounts.run(userId, { type: 'ChangeAvatar', avatarUrl: avatarUrl(name) }, meta);
      user = await this.accounts.userInfoAfter(userId, position, meta.now);
    } catch (error) {
      await this.storage.remove(name);
      throw error;
    }
    // Only a file we stored is ours to delete; an avatar URL from elsewhere (or none) is left alone.
    const old = avatarNameOf(previous?.avatar_url);
    if (old && old !== name) {
      await this.storage
        .remove(old)
        .catch((error: unknown) => this.logger.warn(`old avatar not removed: ${(error as Error).message}`));
    }
    return { ok: true, user };
  }
}
