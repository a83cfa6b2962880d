import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsOptional, IsUUID, ValidateBy } from 'class-validator';
import type { Response } from 'express';
import { AdminGuard, type AuthenticatedRequest, CommandMeta, StaffGuard } from '../../identity/public/index.js';
import type { SfuLoad } from '@serendip/proto';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { SfuLoads } from '../media/sfu-loads.js';
import { type SnapshotRecord, TakeSnapshot } from '../commands/take-snapshot/take-snapshot.command.js';
import { ViewSnapshot } from '../commands/view-snapshot/view-snapshot.command.js';
import { GetSnapshotAudit, type SnapshotAudit } from '../queries/snapshot/snapshot-audit.query.js';
import { isUuid } from '../../platform/shared/ids.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

export const SNAPSHOT_REASON_MAX_LENGTH = 500;
const REASON_NEEDED = 'reason must say why the snapshot is taken';

/** Some words (not only spaces), at most SNAPSHOT_REASON_MAX_LENGTH of them once trimmed: one message either way. */
const IsStatedReason = () =>
  ValidateBy({
    name: 'isStatedReason',
    validator: {
      validate: (value) =>
        typeof value === 'string' && value.trim() !== '' && value.trim().length <= SNAPSHOT_REASON_MAX_LENGTH,
      defaultMessage: ({ value } = {} as never) =>
        typeof value === 'string' && value.trim().length > SNAPSHOT_REASON_MAX_LENGTH
          ? `reason must be at most ${SNAPSHOT_REASON_MAX_LENGTH} characters`
          : REASON_NEEDED,
    },
  });

export class TakeSnapshotDto {
  @IsUUID('all', { message: 'userId must be a user id' })
  userId!: string;

  /**
   * Why the frame is taken, in the admin's words: always, on this route. A reportId alone is no reason here, since
   * the route cannot tell a real report from a made-up id; moderation's own flow, which can, takes snapshots itself.
   */
  @IsStatedReason()
  reason!: string;

  @IsOptional()
  @IsUUID('all', { message: 'reportId must be a report id' })
  reportId?: string;
}

/**
 * Media for admins: the SFU nodes' load, and server-side snapshots (take one of a user in a relayed call, for a
 * stated reason or a report; look at the JPEG, which is recorded and checked against its SHA-256; see who did what
 * with it). The report flow (moderation) takes snapshots itself; these routes serve the dashboard and operators.
 * Admin only, each route guarded before any body is read, but looking at a snapshot, which moderators do too.
 */
@Controller('admin')
export class MediaAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly loads: SfuLoads,
  ) {}

  @Get('media')
  @UseGuards(AdminGuard)
  media(): { nodes: SfuLoad[] } {
    return { nodes: this.loads.nodes() };
  }

  @Post('snapshots')
  @UseGuards(AdminGuard)
  @HttpCode(201)
  take(@Body() body: TakeSnapshotDto, @Req() req: AuthenticatedRequest): Promise<SnapshotRecord> {
    return this.commands.execute(
      new TakeSnapshot(body.userId, req.auth.userId, { reason: body.reason, reportId: body.reportId }),
    );
  }

  /** Moderators look at a report's evidence too (the dashboard's report table): staff, every look recorded. */
  @ApiAnswers({ 409: 'The stored picture no longer matches its checksum in the event log; nothing is served.' })
  @Get('snapshots/:snapshotId')
  @UseGuards(StaffGuard)
  async read(
    @Param('snapshotId') snapshotId: string,
    @CommandMeta() meta: CommandMetadata,
    @Res() res: Response,
  ): Promise<void> {
    if (!isUuid(snapshotId)) throw new NotFoundException('No such snapshot');
    // Every look is its own view, recorded and checked: an Idempotency-Key must not turn a second look into a
    // replay that skips both.
    const jpeg = await this.commands.execute(new ViewSnapshot(snapshotId, { ...meta, commandId: randomUUID() }));
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(jpeg);
  }

  @Get('snapshots/:snapshotId/audit')
  @UseGuards(AdminGuard)
  async audit(@Param('snapshotId') snapshotId: string): Promise<SnapshotAudit> {
    const audit = isUuid(snapshotId) ? await this.queries.execute(new GetSnapshotAudit(snapshotId)) : undefined;
    if (!audit) throw new NotFoundException('No such snapshot');
    return audit;
  }
}
