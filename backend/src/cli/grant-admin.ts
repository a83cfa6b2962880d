import { randomUUID } from 'node:crypto';
import { account } from '../identity/domain/account.decider.js';
import { emailConfirmed } from '../identity/accounts/accounts.js';
import { emailKey } from '../identity/accounts/email-address.js';
import { type AccountEvent, accountStream } from '../identity/domain/account.events.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { runCli, withEventCore } from './cli-support.js';

/** `npm run admin:grant -- <email>`: makes an existing user an admin (an AdminGranted event, by `cli`). */
runCli('admin:grant', async () => {
  const emailAddress = process.argv[2]?.trim();
  if (!emailAddress) throw new Error('usage: npm run admin:grant -- <email>');
  await withEventCore(async ({ db, core }) => {
    const owner = await db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailKey(emailAddress))
      .executeTakeFirst();
    if (!owner) throw new Error(`no account with the e-mail address ${emailAddress}`);
    // Holding an address is not owning it: only an account that confirmed it by the mailed link is made an admin.
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
      { type: 'GrantAdmin', grantedBy: 'cli' },
      { commandId, correlationId: commandId, actor: 'cli', now: new Date() },
    );
    process.stdout.write(
      result.events.length ? `${emailAddress} is now an admin\n` : `${emailAddress} was already an admin\n`,
    );
  });
});
