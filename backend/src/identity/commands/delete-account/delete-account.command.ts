import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { Accounts } from '../../accounts/accounts.js';
import { AVATAR_STORAGE, type AvatarStorage, avatarNameOf } from '../../avatars/avatar-storage.js';
import { CurrentPassword } from '../../passwords/current-password.js';
import { SignIns } from '../../sessions/sign-ins.js';

/** Why its sessions ended, as SessionEnded records it. */
export const ACCOUNT_DELETION_REASON = 'account deleted';

export class DeleteAccount extends Command<void> {
  constructor(
    readonly userId: string,
    readonly currentPassword: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * spec 2 "Account settings dialog" (delete account): ends every session, records the deletion, destroys the person's key (crypto-shredding:
 * every personal field in the log reads as erased from now on) and frees the address. Non-personal history stays,
 * under the bare id.
 */
@CommandHandler(DeleteAccount)
export class DeleteAccountHandler implements ICommandHandler<DeleteAccount> {
  private readonly logger = new Logger(DeleteAccountHandler.name);

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(AVATAR_STORAGE) private readonly avatars: AvatarStorage,
    private readonly accounts: Accounts,
    private readonly currentPasswordOf: CurrentPassword,
    private readonly signIns: SignIns,
  ) {}

  async execute({ userId, currentPassword, meta }: DeleteAccount): Promise<void> {
    await this.currentPasswordOf.check(userId, currentPassword);
    // Read before the deletion clears it from the read model.
    const avatar = avatarNameOf((await this.accounts.userInfo(userId, meta.now)).avatar);
    await this.signIns.endAll(userId, ACCOUNT_DELETION_REASON, meta);
    const position = await this.accounts.run(userId, { type: 'DeleteAccount' }, meta);
    await this.core.vault.forgetSubject(userId);
    await this.db.deleteFrom('account_emails').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('auth_known_devices').where('user_id', '=', userId).execute();
    // The ended sessions stay (audit) but say nothing more about the person: where, from what, from which address.
    await this.db
      .updateTable('auth_sessions')
      .set({ ip: null, user_agent: null, country: null, city: null })
      .where('user_id', '=', userId)
      .execute();
    await this.db.deleteFrom('auth_email_tokens').where('user_id', '=', userId).execute();
    await this.db.deleteFrom('auth_login_challenges').where('user_id', '=', userId).execute();
    await this.accounts.caughtUpTo(position);
    // The picture goes with the account; the account is gone either way, so a failure is only logged.
    if (avatar) {
      await this.avatars
        .remove(avatar)
        .catch((error: unknown) => this.logger.error(`avatar not removed: ${(error as Error).message}`));
    }
  }
}
