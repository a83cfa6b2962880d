import { describe, expect, it } from 'vitest';
import { looksLikeEmail, maskEmail } from './email-address';

describe('maskEmail (spec 2: the e-mail is shown masked)', () => {
  it('keeps the first character and the domain', () => {
    expect(maskEmail('ada@example.com')).toBe('a***@example.com');
    expect(maskEmail('ada.lovelace@mail.example.co.uk')).toBe('a***@mail.example.co.uk');
  });

  it('shows nothing of an address it cannot read', () => {
    expect(maskEmail('no-at-sign')).toBe('***');
    expect(maskEmail('@example.com')).toBe('***');
  });
});

describe('looksLikeEmail (spec 5: text, an at sign, a domain with a dot)', () => {
  it.each(['ada@example.com', ' ada@example.com ', 'a+b@mail.example.co.uk'])('accepts %j', (value) => {
    expect(looksLikeEmail(value)).toBe(true);
  });

  it.each(['ada', 'ada@example', '@example.com', 'ada@.', 'ada lovelace@example.com'])('refuses %j', (value) => {
    expect(looksLikeEmail(value)).toBe(false);
  });
});
