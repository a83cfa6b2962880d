import { Controller, Get, NotFoundException, Param, ParseUUIDPipe, Query, UseGuards } from '@nestjs/common';
import { ADMIN_AUDIT_PAGE_SIZE, type AuditStreamHistory, type AuditUserHistory } from '@serendip/proto';
import { AdminGuard, CommandMeta, StaffUserDirectory } from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { RecordStaffAccess } from '../commands/record-access/record-access.js';
import { AuditHistory } from '../queries/audit-history/audit-history.js';
import { AuditStreamParamsDto, AuditStreamQueryDto, AuditUserQueryDto } from './audit.dto.js';

/** Ids in the path are UUIDs: anything else names nobody (404). */
const userIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such user') });

/**
 * The audit API (spec 6 Admin: admins audit complete histories): every event about a person, newest first, and one
 * stream's whole history, oldest first, with personal data opened. Admins only, checked in the guard before any
 * parameter is read (a moderator reads the dashboard's trail, personal data hidden). Every read is a look at the
 * person, recorded (StaffViewedUser) before the answer goes out, as the dashboard's trail does.
 */
@Controller('admin/audit')
@UseGuards(AdminGuard)
export class AuditController {
  constructor(
    private readonly history: AuditHistory,
    private readonly access: RecordStaffAccess,
    private readonly users: StaffUserDirectory,
  ) {}

  @Get('users/:userId')
  async user(
    @Param('userId', userIdOf) userId: string,
    @Query() query: AuditUserQueryDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<AuditUserHistory> {
    // A deleted account stays on record (its history reads as erased); an id that never was one is not found.
    if (!(await this.users.profile(userId))) throw new NotFoundException('No such user');
    await this.access.record(userId, 'audit-trail', meta);
    return this.history.ofUser(userId, { cursor: query.cursor, limit: query.limit ?? ADMIN_AUDIT_PAGE_SIZE });
  }

  @Get('streams/:stream')
  async stream(
    @Param() params: AuditStreamParamsDto,
    @Query() query: AuditStreamQueryDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<AuditStreamHistory> {
    const page = await this.history.ofStream(params.stream, {
      cursor: query.cursor,
      limit: query.limit ?? ADMIN_AUDIT_PAGE_SIZE,
    });
    if (!page) throw new NotFoundException(`There is no stream named ${params.stream}.`);
    for (const person of await this.history.peopleOf(params.stream)) {
      await this.access.record(person, 'stream-history', meta, params.stream);
    }
    return page;
  }
}
