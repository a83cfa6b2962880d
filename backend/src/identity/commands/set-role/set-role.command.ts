import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Role } from '@serendip/proto';
import { sql } from 'kysely';
import { DomainError } from '../../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { Accounts } from '../../accounts/accounts.js';

export class SetRole extends Command<{ message: string }> {
  constructor(
    readonly userId: string,
    readonly role: Role,
    readonly reason: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

export const LAST_ADMIN = 'Serendip needs at least one admin.';

const NAMES: Record<Role, string> = { user: 'a user without a role', moderator: 'a moderator', admin: 'an admin' };

/**
 * spec 6 Admin: an admin gives an account a role or takes it away (RoleGranted / RoleRevoked, with the reason and who
 * did it). The decider refuses one's own role; an unknown or deleted account is 404 here, and the last admin keeps the
 * role (409: nobody could grant it again but the operator). Answers once the read model (and so every guard) knows the
 * new role.
 */
@CommandHandler(SetRole)
export class SetRoleHandler implements ICommandHandler<SetRole> {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly accounts: Accounts,
  ) {}

  /** This node's role changes, one after another: only one at a time holds a connection waiting for the lock below. */
  private queue: Promise<unknown> = Promise.resolve();

  execute(command: SetRole): Promise<{ message: string }> {
    const change = this.queue.then(() => this.change(command));
    this.queue = change.catch(() => undefined);
    return change;
  }

  private async change({ userId, role, reason, meta }: SetRole): Promise<{ message: string }> {
    const row = await this.db
      .selectFrom('users')
      .select(['deleted_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (!row || row.deleted_at) throw new DomainError('no-such-user', 'No such user', { kind: 'not-found' });
    // One role change at a time, across nodes, until the read model has it: two admins demoting each other at once
    // must not both pass the check below.
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtext('identity:set-role'))`.execute(trx);
      // One's own role is the decider's to refuse (403), whatever the count.
      if (role !== 'admin' && userId !== meta.actor) {
        const admins = await trx
          .selectFrom('users')
          .select('user_id')
          .where('role', '=', 'admin')
          .where('deleted_at', 'is', null)
          .execute();
        const ids = admins.map((a) => a.user_id);
        if (ids.includes(userId) && ids.length === 1) {
          throw new DomainError('last-admin', LAST_ADMIN, { kind: 'conflict' });
        }
      }
      const position = await this.accounts.run(userId, { type: 'SetRole', role, by: meta.actor, reason }, meta);
      await this.accounts.caughtUpTo(position);
      return { message: position ? `The account is now ${NAMES[role]}.` : `The account was already ${NAMES[role]}.` };
    });
  }
}
