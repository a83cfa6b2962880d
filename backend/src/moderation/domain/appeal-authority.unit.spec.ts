import { describe, expect, it } from 'vitest';
import { type AppealedBan, appealBar } from './appeal-authority.js';

const bannedAt = new Date('2026-11-01T12:00:00Z');
const days = (n: number) => new Date(bannedAt.getTime() + n * 86_400_000);
/** Mona's 7-day ban of a plain user. */
const monasBan: AppealedBan = {
  bannedAt,
  expiresAt: days(7),
  bannedBy: 'mona',
  bannedByRole: 'moderator',
  userRole: 'user',
};
const mona = { id: 'mona', role: 'moderator' } as const;
const grace = { id: 'grace', role: 'moderator' } as const;

describe('who decides an appeal', () => {
  it('leaves a moderator’s short ban of a plain user to another moderator, not to the one who decided it', () => {
    expect(appealBar(grace, monasBan)).toBeNull();
    expect(appealBar(mona, monasBan)).toBe('own-ban');
  });

  it('leaves every appeal to an admin, the one of a ban they decided too (a one-admin team must still decide)', () => {
    const adminsBan = { ...monasBan, bannedBy: 'ada', bannedByRole: 'admin' as const, expiresAt: null };
    expect(appealBar({ id: 'ada', role: 'admin' }, adminsBan)).toBeNull();
    expect(appealBar(grace, adminsBan)).toBe('admin-only');
  });

  it('keeps longer bans, and bans of staff, an admin’s', () => {
    expect(appealBar(grace, { ...monasBan, expiresAt: days(31) })).toBe('admin-only');
    expect(appealBar(grace, { ...monasBan, userRole: 'moderator' })).toBe('admin-only');
    expect(appealBar({ id: 'bob', role: 'user' }, monasBan)).toBe('admin-only');
  });
});
