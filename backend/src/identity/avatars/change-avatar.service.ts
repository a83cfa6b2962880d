import { Inject, Injectable, Logger } from '@nestjs/common';
import type { UserInfo } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { ProfileService } from '../profile/profile.service.js';
import { type AvatarImage, toAvatarImage } from './avatar-image.js';
import { AVATAR_STORAGE, type AvatarStorage, avatarNameOf, avatarUrl, newAvatarName } from './avatar-storage.js';

export type ChangeAvatarResult =
  { ok: true; user: UserInfo } | { ok: false; problem: Extract<AvatarImage, { ok: false }>['problem'] };

/**
 * A new profile picture (issue 6), whatever transport brought its bytes: normalised, stored under a fresh name,
 * recorded on the account, and the picture it replaces removed.
 */
@Injectable()
export class ChangeAvatarService {
  private readonly logger = new Logger(ChangeAvatarService.name);

  constructor(
    @Inject(AVATAR_STORAGE) private readonly storage: AvatarStorage,
    @Inject(DATABASE) private readonly db: Db,
    private readonly profile: ProfileService,
  ) {}

  async changeAvatar(userId: string, bytes: Buffer, meta: CommandMetadata): Promise<ChangeAvatarResult> {
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
      user = await this.profile.changeAvatar(userId, avatarUrl(name), meta);
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
