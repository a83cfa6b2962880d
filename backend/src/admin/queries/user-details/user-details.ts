import { Injectable } from '@nestjs/common';
import type { DashBan, DashSession, DashUserDetails } from '@serendip/proto';
import { type StaffSessionRow, StaffUserDirectory, UserDirectory } from '../../../identity/public/index.js';
import { type BanRecord, ModerationRecords } from '../../../moderation/public/index.js';

/**
 * One person for the dashboard (spec 2 /dashboard/user-management/:id/view-details): profile, status, sessions, bans
 * with their appeals, and report counts. A moderator gets what any member sees of another on a public profile (first
 * name, username, avatar, gender, age, country, bio) plus the moderation facts (role, status, bans, report counts);
 * last name, birth date, city, sessions, e-mail and phone are an admin's. Undefined for an unknown id.
 */
@Injectable()
export class UserDetails {
  constructor(
    private readonly users: StaffUserDirectory,
    private readonly directory: UserDirectory,
    private readonly moderation: ModerationRecords,
  ) {}

  async of(userId: string, viewer: { admin: boolean }, now: Date): Promise<DashUserDetails | undefined> {
    const profile = await this.users.profile(userId);
    if (!profile) return undefined;
    const [sessions, bans, reports] = await Promise.all([
      viewer.admin ? this.users.sessions(userId) : [],
      this.moderation.bansOf(userId, now),
      this.moderation.reportCounts(userId),
    ]);
    const names = await this.directory.firstNames(bans.map((b) => b.bannedBy));
    const view = (b: BanRecord): DashBan => ({
      caseId: b.caseId,
      reason: b.reason,
      level: b.level,
      bannedBy: { _id: b.bannedBy, firstName: names.get(b.bannedBy) ?? null },
      bannedAt: b.bannedAt.toISOString(),
      expiresAt: b.expiresAt?.toISOString() ?? null,
      endedAt: b.endedAt?.toISOString() ?? null,
      endedHow: b.endedHow,
      appealStatus: b.appealStatus,
      appealExplanation: b.appealExplanation,
      reportId: b.reportId,
    });
    const current = bans.find((b) => b.current);
    const deleted = profile.deletedAt !== null;
    return {
      profile: {
        _id: profile.userId,
        firstName: profile.firstName,
        username: profile.username,
        avatar: profile.avatar,
        gender: profile.gender,
        age: profile.birthDate ? ageOn(profile.birthDate, now) : null,
        country: profile.country,
        bio: profile.bio,
        registeredAt: profile.registeredAt.toISOString(),
        ...(viewer.admin ? { lastName: profile.lastName, birthDate: profile.birthDate, city: profile.city } : {}),
        ...(viewer.admin && !deleted ? { emailAddress: profile.emailAddress, phoneNumber: profile.phoneNumber } : {}),
      },
      status: {
        role: profile.role,
        status: deleted ? 'deleted' : current ? 'banned' : 'active',
        twoFactorEnabled: profile.twoFactorEnabled,
        emailVerified: profile.emailVerified,
        profileCompleted: profile.profileCompleted,
        deletedAt: profile.deletedAt?.toISOString() ?? null,
        currentBan: current ? view(current) : null,
      },
      ...(viewer.admin ? { sessions: sessions.map(sessionView) } : {}),
      bans: bans.map(view),
      reports,
    };
  }
}

/** Whole years on `on`'s day, as a person counts their age (a member sees an age, never the birth date). */
function ageOn(birthDate: string, on: Date): number {
  const [y, m, d] = birthDate.split('-').map(Number) as [number, number, number];
  const hadBirthday = on.getUTCMonth() + 1 > m || (on.getUTCMonth() + 1 === m && on.getUTCDate() >= d);
  return on.getUTCFullYear() - y - (hadBirthday ? 0 : 1);
}

function sessionView(s: StaffSessionRow): DashSession {
  return {
    sessionId: s.sessionId,
    userAgent: s.userAgent,
    createdAt: s.createdAt.toISOString(),
    lastUsedAt: s.lastUsedAt.toISOString(),
    endedAt: s.endedAt?.toISOString() ?? null,
    endReason: s.endReason,
    country: s.country,
    city: s.city,
    ip: s.ip,
  };
}
