import { Injectable } from '@nestjs/common';
import type { DashBan, DashUserDetails } from '@serendip/proto';
import { StaffUserDirectory, UserDirectory } from '../../../identity/public/index.js';
import { type BanRecord, ModerationRecords } from '../../../moderation/public/index.js';

/**
 * One person for the dashboard (spec 2 /dashboard/user-management/:id/view-details): profile, status, sessions, bans
 * with their appeals, and report counts. E-mail, phone and IPs go to admins only. Undefined for an unknown id.
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
      this.users.sessions(userId),
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
        lastName: profile.lastName,
        username: profile.username,
        avatar: profile.avatar,
        gender: profile.gender,
        birthDate: profile.birthDate,
        country: profile.country,
        city: profile.city,
        bio: profile.bio,
        registeredAt: profile.registeredAt.toISOString(),
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
      sessions: sessions.map((s) => ({
        sessionId: s.sessionId,
        userAgent: s.userAgent,
        createdAt: s.createdAt.toISOString(),
        lastUsedAt: s.lastUsedAt.toISOString(),
        endedAt: s.endedAt?.toISOString() ?? null,
        endReason: s.endReason,
        country: s.country,
        city: s.city,
        ...(viewer.admin ? { ip: s.ip } : {}),
      })),
      bans: bans.map(view),
      reports,
    };
  }
}
