/**
 * `ada@example.com` -> `a***@example.com`: enough for an operator to tell mails apart, or for the owner to recognise
 * their address, and little for anyone else. Mails to people use `•••`.
 */
export function maskEmail(address: string, mask = '***'): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return mask;
  return `${address[0]}${mask}${address.slice(at)}`;
}

// One plain address only: "a@x.com, b@y.com" or a display name would let a crafted value add recipients.
const ONE_PLAIN_ADDRESS = /^[^\s@,;:<>()"'[\]\\]+@[^\s@,;:<>()"'[\]\\]+$/;

export function assertOneRecipient(to: string): void {
  // The address itself stays out of the message: errors end up in logs.
  if (!ONE_PLAIN_ADDRESS.test(to)) throw new Error('mail recipient must be exactly one plain e-mail address');
}
