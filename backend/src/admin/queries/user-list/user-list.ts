import { Injectable } from '@nestjs/common';
import { DASH_USERS_PAGE_SIZE, type DashUserList, type DashUserStatus } from '@serendip/proto';
import { StaffUserDirectory } from '../../../identity/public/index.js';
import { ModerationRecords } from '../../../moderation/public/index.js';

/**
 * The user list (spec 2 /dashboard/user-management): newest accounts first, 25 a page, searched by name and username
 * for staff and by e-mail address for admins only; each row's status (active, banned, deleted) and, for admins, the
 * last name and e-mail address. Searching and paging happen in SQL.
 */
@Injectable()
export class UserList {
  constructor(
    private readonly users: StaffUserDirectory,
    private readonly moderation: ModerationRecords,
  ) {}

  async page(options: { search: string; page: number; admin: boolean; now: Date }): Promise<DashUserList> {
    const { rows, total } = await this.users.list({
      search: options.search,
      byEmail: options.admin,
      offset: (options.page - 1) * DASH_USERS_PAGE_SIZE,
      limit: DASH_USERS_PAGE_SIZE,
    });
    const banned = await this.moderation.bannedAmong(
      rows.map((r) => r.userId),
      options.now,
    );
    return {
      items: rows.map((r) => {
        const status: DashUserStatus = r.deletedAt ? 'deleted' : banned.has(r.userId) ? 'banned' : 'active';
        return {
          _id: r.userId,
          firstName: r.firstName,
          username: r.username,
          avatar: r.avatar,
          country: r.country,
          role: r.role,
          status,
          registeredAt: r.registeredAt.toISOString(),
          // A last name is an admin's to read, as on the details page (UserDetails).
          ...(options.admin ? { lastName: r.lastName } : {}),
          ...(options.admin && !r.deletedAt ? { emailAddress: r.emailAddress } : {}),
        };
      }),
      page: options.page,
      totalPages: Math.max(1, Math.ceil(total / DASH_USERS_PAGE_SIZE)),
      total,
    };
  }
}
