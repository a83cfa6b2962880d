import { randomUUID } from 'node:crypto';
import { account, type Role } from '../identity/domain/account.decider.js';
import { emailConfirmed } from '../identity/accounts/accounts.js';
import { emailKey } from '../identity/accounts/email-address.js';
import { type AccountEvent, accountStream } from '../identity/domain/account.events.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { runCli, withEventCore } from './cli-support.js';

const ROLES: readonly Role[] = ['user', 'moderator', 'admin'];
const USAGE = 'usage: npm run admin:grant -- <email> [admin|moderator|user] [reason...]';

/**
 * `npm run admin:grant -- <email> [role] [reason]`: gives an existing user a role (spec 6 Admin), admin unless named;
 * 'user' takes it away. A RoleGranted / RoleRevoked event by `cli`, as the dashboard's route records one by an admin.
 */
runCli('admin:grant', async () => {
  const [rawAddress, rawRole, ...words] = process.argv.slice(2);
  const emailAddress = rawAddress?.trim();
  if (!emailAddress) throw new Error(USAGE);
  const role = (rawRole ?? 'admin') as Role;
  if (!ROLES.includes(role)) throw new Error(USAGE);
  const reason = words.join(' ').trim() || 'granted with npm run admin:grant';
  await withEventCore(async ({ db, core }) => {
    const owner = await db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailKey(emailAddress))
      .executeTakeFirst();
    if (!owner) throw new Error(`no account with the e-mail address ${emailAddress}`);
    // Holding an address is not owning it: only an account that confirmed it by the mailed link gets a role.
    const history = (await core.store.readStream(accountStream(owner.user_id))).map(
      (e) => ({ type: e.type, data: e.data }) as AccountEvent,
    );
    if (!emailConfirmed(history))
      throw new Error(`the account with the e-mail address ${emailAddress} never confirmed it`);
    const commandId = randomUUID();
    const result = await executeDecider(
      core,
      accountStream(owner.user_id),
      account,
      { type: 'SetRole', role, by: 'cli', reason },
      { commandId, correlationId: commandId, actor: 'cli', now: new Date() },
    );
    const name = role === 'user' ? 'a user without a role' : `${role === 'admin' ? 'an' : 'a'} ${role}`;
    process.stdout.write(
      result.events.length ? `${emailAddress} is now ${name}\n` : `${emailAddress} was already ${name}\n`,
    );
  });
});
