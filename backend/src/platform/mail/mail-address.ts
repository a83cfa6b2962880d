/** `ada@example.com` -> `a***@example.com`: enough for an operator to tell mails apart, not to know who. */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  return `${address[0]}***${address.slice(at)}`;
}

// One plain address only: "a@x.com, b@y.com" or a display name would let a crafted value add recipients.
const ONE_PLAIN_ADDRESS = /^[^\s@,;:<>()"'[\]\\]+@[^\s@,;:<>()"'[\]\\]+$/;

export function assertOneRecipient(to: string): void {
  // The address itself stays out of the message: errors end up in logs.
  if (!ONE_PLAIN_ADDRESS.test(to)) throw new Error('mail recipient must be exactly one plain e-mail address');
}
