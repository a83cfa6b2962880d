import { Controller, Get, NotFoundException, Param, ParseUUIDPipe, Query, Req, UseGuards } from '@nestjs/common';
import type { AuditTrailPage, DashUserDetails, DashUserList } from '@serendip/proto';
import { type AuthenticatedRequest, CommandMeta, StaffGuard, UserDirectory } from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { RecordStaffAccess } from '../commands/record-access/record-access.js';
import { AuditTrail } from '../queries/audit-trail/audit-trail.js';
import { UserDetails } from '../queries/user-details/user-details.js';
import { UserList } from '../queries/user-list/user-list.js';
import { AuditTrailQueryDto, DashUsersQueryDto } from './users.dto.js';

/** Ids in the path are UUIDs: anything else names nobody (404). */
const userIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such user') });

/**
 * User management (spec 2 /dashboard/user-management and its view-details page; spec 6 Admin): staff list and search
 * people, open one, and read their audit trail. What staff open is itself recorded (StaffViewedUser) and shows in the
 * person's trail. A moderator gets what a member sees of a person plus the moderation facts (UserDetails); no e-mail
 * addresses, IPs, sessions or decrypted personal data.
 */
@Controller('dash/users')
@UseGuards(StaffGuard)
export class DashUsersController {
  constructor(
    private readonly list: UserList,
    private readonly details: UserDetails,
    private readonly trail: AuditTrail,
    private readonly access: RecordStaffAccess,
    private readonly directory: UserDirectory,
  ) {}

  @Get()
  async users(@Query() query: DashUsersQueryDto, @Req() req: AuthenticatedRequest): Promise<DashUserList> {
    return this.list.page({
      search: query.search ?? '',
      page: query.page ?? 1,
      admin: await this.isAdmin(req),
      now: new Date(),
    });
  }

  @Get(':userId')
  async user(
    @Param('userId', userIdOf) userId: string,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<DashUserDetails> {
    const found = await this.details.of(userId, { admin: await this.isAdmin(req) }, meta.now);
    if (!found) throw new NotFoundException('No such user');
    await this.access.record(userId, 'details', meta);
    return found;
  }

  /**
   * Newest first. Every page read is an access record. Each record is itself an event about the person, landing on
   * top of the trail, so the pages are read as of the first one (`asOf`, the log position of its newest entry, which
   * the client sends back): later events, these records among them, do not shift them.
   */
  @Get(':userId/audit-trail')
  async auditTrail(
    @Param('userId', userIdOf) userId: string,
    @Query() query: AuditTrailQueryDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<AuditTrailPage> {
    await this.access.record(userId, 'audit-trail', meta);
    return this.trail.page(userId, query.page ?? 1, { admin: await this.isAdmin(req) }, query.asOf);
  }

  private async isAdmin(req: AuthenticatedRequest): Promise<boolean> {
    return (await this.directory.roleOf(req.auth.userId)) === 'admin';
  }
}
