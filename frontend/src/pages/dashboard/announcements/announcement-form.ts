import { ANNOUNCEMENT_LIMITS, type AnnouncementRequest, announcementRequestSchema } from '@serendip/proto';

export type AnnouncementField = 'title' | 'description' | 'adminAnnouncement' | 'userId';
export type Audience = 'everyone' | 'one-user';

export interface AnnouncementDraft {
  title: string;
  description: string;
  adminAnnouncement: string;
  forceOpen: boolean;
  audience: Audience;
  /** The user picked when the audience is one user. */
  userId: string | null;
}

export const EMPTY_DRAFT: AnnouncementDraft = {
  title: '',
  description: '',
  adminAnnouncement: '',
  forceOpen: false,
  audience: 'everyone',
  userId: null,
};

/** Said under a field, per problem the contract's schema finds (proto announcementRequestSchema). */
const MESSAGES: Record<AnnouncementField, { required?: string; tooLong?: string }> = {
  title: { required: 'Give the announcement a title.', tooLong: `At most ${ANNOUNCEMENT_LIMITS.title} characters.` },
  description: {
    required: 'Say what the announcement is about.',
    tooLong: `At most ${ANNOUNCEMENT_LIMITS.description} characters.`,
  },
  adminAnnouncement: { tooLong: `At most ${ANNOUNCEMENT_LIMITS.adminAnnouncement} characters.` },
  userId: { required: 'Choose the user to send it to.' },
};

/** The request to send, or what to say under each field (checked as the server checks it). */
export function checkAnnouncement(
  draft: AnnouncementDraft,
): { ok: true; request: AnnouncementRequest } | { ok: false; fields: Partial<Record<AnnouncementField, string>> } {
  const fields: Partial<Record<AnnouncementField, string>> = {};
  if (draft.audience === 'one-user' && !draft.userId) fields.userId = MESSAGES.userId.required;
  const adminAnnouncement = draft.adminAnnouncement.trim();
  const parsed = announcementRequestSchema.safeParse({
    title: draft.title,
    description: draft.description,
    ...(adminAnnouncement ? { adminAnnouncement } : {}),
    forceOpen: draft.forceOpen,
    userId: draft.audience === 'one-user' ? draft.userId : null,
  });
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as AnnouncementField;
      if (!(field in MESSAGES) || fields[field]) continue;
      fields[field] = issue.code === 'too_big' ? MESSAGES[field].tooLong : (MESSAGES[field].required ?? issue.message);
    }
  }
  if (!parsed.success || Object.keys(fields).length > 0) return { ok: false, fields };
  return { ok: true, request: parsed.data };
}
