// spec 5: text, an at sign, a domain with a dot.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function looksLikeEmail(value: string): boolean {
  return EMAIL_SHAPE.test(value.trim());
}

/**
 * spec 2: the dialog shows the e-mail masked, 'ada@example.com' -> 'a***@example.com': enough for the owner to
 * recognise it, little for someone looking over their shoulder. The stars do not tell the name's length.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '***';
  return `${address.charAt(0)}***${address.slice(at)}`;
}
