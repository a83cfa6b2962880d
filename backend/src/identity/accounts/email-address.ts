import { domainToASCII } from 'node:url';

/**
 * One spelling per mailbox (spec 1 "Accounts": one account per address): Unicode compatibility forms folded (NFKC: a
 * ligature "ﬃ" or a full-width letter is the plain one), the domain in its ASCII form (punycode, as DNS and SMTP
 * know it), case ignored for lookups. Without this, look-alike spellings of one mailbox were separate accounts.
 */
export function canonicalEmail(address: string): string {
  const folded = address.normalize('NFKC').trim();
  const at = folded.lastIndexOf('@');
  if (at < 1) return folded;
  const domain = folded.slice(at + 1);
  // domainToASCII answers '' for a domain it cannot map; the address is then kept as typed (validation refuses it).
  const ascii = domainToASCII(domain) || domain.toLowerCase();
  return `${folded.slice(0, at)}@${ascii}`;
}

/** The key of the address index (account_emails.email_lower) and of per-address limits. */
export function emailKey(address: string): string {
  return canonicalEmail(address).toLowerCase();
}
