import { domainToASCII } from 'node:url';
import { type Kysely, sql } from 'kysely';

/**
 * Addresses are keyed by one spelling per mailbox (NFKC, punycode domain, lower case); rows written before keyed them
 * by lower case only. Rewritten here with the rule as it stood (a migration must not follow later code). A row whose
 * new key another row holds already stays as it was, for an operator to look at; the migration says how many.
 *
 * When each address was claimed (an address never confirmed is released after a day, spec 1 "Accounts"), and the
 * browsers each account signed in from (a known device keeps its own count of failed logins, so failures from
 * elsewhere cannot lock the owner out). Device tokens are stored as SHA-256 hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await rekeyAddresses(db as Kysely<AccountEmails>);
  await db.schema
    .alterTable('account_emails')
    .addColumn('claimed_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('auth_known_devices')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('last_used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('auth_known_devices_user').on('auth_known_devices').column('user_id').execute();
}

interface AccountEmails {
  account_emails: { email_lower: string; user_id: string };
}

function mailboxKey(address: string): string {
  const folded = address.normalize('NFKC').trim();
  const at = folded.lastIndexOf('@');
  if (at < 1) return folded.toLowerCase();
  const domain = folded.slice(at + 1);
  return `${folded.slice(0, at)}@${domainToASCII(domain) || domain}`.toLowerCase();
}

async function rekeyAddresses(db: Kysely<AccountEmails>): Promise<void> {
  const rows = await db.selectFrom('account_emails').select(['email_lower', 'user_id']).execute();
  const taken = new Set(rows.map((row) => row.email_lower));
  let left = 0;
  for (const row of rows) {
    const key = mailboxKey(row.email_lower);
    if (key === row.email_lower) continue;
    if (taken.has(key)) {
      left++;
      continue;
    }
    await db.updateTable('account_emails').set({ email_lower: key }).where('user_id', '=', row.user_id).execute();
    taken.delete(row.email_lower);
    taken.add(key);
  }
  // A migration has no logger; a process warning reaches the operator on stderr.
  if (left > 0)
    process.emitWarning(`${left} address(es) left under their old key: another account holds the new one`, {
      code: 'SERENDIP_0013_ADDRESS_CLASH',
    });
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('auth_known_devices').execute();
  await db.schema.alterTable('account_emails').dropColumn('claimed_at').execute();
}
