import { randomUUID } from 'node:crypto';
import { ConfigError, loadConfig } from '../config/config.js';
import { contexts } from '../contexts.js';
import { account } from '../identity/domain/account.decider.js';
import { accountStream } from '../identity/domain/account.events.js';
import { executeDecider } from '../platform/cqrs/execute-decider.js';
import { openDatabase } from '../platform/database/database.js';
import { EventCore } from '../platform/event-core/event-core.js';
import { createLogger } from '../platform/logging/logger.js';
import { loadKeyEncryptionKey } from '../platform/personal-data/key-encryption-key.js';

/** `npm run admin:grant -- <email>`: makes an existing user an admin (an AdminGranted event, by `cli`). */
async function main() {
  const emailAddress = process.argv[2]?.trim();
  if (!emailAddress) throw new Error('usage: npm run admin:grant -- <email>');
  const config = loadConfig();
  const logger = createLogger('warn');
  const database = await openDatabase(config, logger);
  const core = await EventCore.create({
    db: database.db,
    databaseUrl: database.url,
    eventStoreUrl: config.eventStoreUrl,
    keyEncryptionKey: await loadKeyEncryptionKey(config.personalDataKey, config.dataDir),
    contexts,
    logger,
  });
  try {
    const owner = await database.db
      .selectFrom('account_emails')
      .select('user_id')
      .where('email_lower', '=', emailAddress.toLowerCase())
      .executeTakeFirst();
    if (!owner) throw new Error(`no account with the e-mail address ${emailAddress}`);
    const commandId = randomUUID();
    const result = await executeDecider(
      core,
      accountStream(owner.user_id),
      account,
      { type: 'GrantAdmin', grantedBy: 'cli' },
      {
        commandId,
        correlationId: commandId,
        actor: 'cli',
        now: new Date(),
      },
    );
    process.stdout.write(
      result.events.length ? `${emailAddress} is now an admin\n` : `${emailAddress} was already an admin\n`,
    );
  } finally {
    await core.stop();
    await database.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    const problem =
      error instanceof ConfigError
        ? `Configuration error: ${error.problems.join('; ')}`
        : String((error as Error).message ?? error);
    process.stderr.write(`admin:grant failed: ${problem}\n`);
    process.exit(1);
  },
);
