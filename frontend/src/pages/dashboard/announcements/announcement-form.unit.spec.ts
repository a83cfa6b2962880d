import { describe, expect, it } from 'vitest';
import { type AnnouncementDraft, checkAnnouncement, EMPTY_DRAFT } from './announcement-form';

const draft = (overrides: Partial<AnnouncementDraft>): AnnouncementDraft => ({ ...EMPTY_DRAFT, ...overrides });

describe('the announcement form (admin dashboard)', () => {
  it('asks for a title and a description, trimmed', () => {
    expect(checkAnnouncement(draft({ title: '  ', description: '' }))).toEqual({
      ok: false,
      fields: { title: 'Give the announcement a title.', description: 'Say what the announcement is about.' },
    });
  });

  it('asks for the user when it goes to one user', () => {
    expect(checkAnnouncement(draft({ title: 'T', description: 'D', audience: 'one-user' }))).toEqual({
      ok: false,
      fields: { userId: 'Choose the user to send it to.' },
    });
  });

  it('says when a field is too long', () => {
    const result = checkAnnouncement(draft({ title: 'x'.repeat(121), description: 'D' }));
    expect(result).toEqual({ ok: false, fields: { title: 'At most 120 characters.' } });
  });

  it('sends to everyone with no userId, and leaves out an empty admin announcement', () => {
    expect(checkAnnouncement(draft({ title: ' Maintenance ', description: 'Tonight.', forceOpen: true }))).toEqual({
      ok: true,
      request: { title: 'Maintenance', description: 'Tonight.', forceOpen: true, userId: null },
    });
    const userId = '0b6b0a8e-8b1f-4d43-9b84-3f0f5d5e2f6a';
    expect(
      checkAnnouncement(
        draft({ title: 'T', description: 'D', adminAnnouncement: ' Thanks ', audience: 'one-user', userId }),
      ),
    ).toEqual({
      ok: true,
      request: { title: 'T', description: 'D', adminAnnouncement: 'Thanks', forceOpen: false, userId },
    });
  });
});
