import { describe, expect, it } from 'vitest';
import { canonicalEmail, emailKey } from './email-address.js';

describe('e-mail addresses: one spelling per mailbox', () => {
  it('folds compatibility forms and case, so a look-alike spelling is the same key', () => {
    expect(emailKey('oﬃce@example.com')).toBe('office@example.com');
    expect(emailKey('Ｐerson@ｅxample.com')).toBe('person@example.com');
    expect(emailKey('  Ada@Example.COM ')).toBe('ada@example.com');
  });

  it('writes an international domain as DNS knows it (punycode)', () => {
    expect(emailKey('user@Bücher.example')).toBe('user@xn--bcher-kva.example');
    expect(emailKey('user@xn--bcher-kva.example')).toBe('user@xn--bcher-kva.example');
  });

  it('keeps the local part as typed in the address it mails to', () => {
    expect(canonicalEmail('Ada.Lovelace@Example.com')).toBe('Ada.Lovelace@example.com');
  });

  it('leaves what is not an address alone, for validation to refuse', () => {
    expect(canonicalEmail('no-at-sign')).toBe('no-at-sign');
  });
});
