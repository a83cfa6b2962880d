import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { IsUUID } from 'class-validator';
import type { Response } from 'express';
import { AdminGuard, type AuthenticatedRequest } from '../../identity/public/index.js';
import type { SfuLoad } from '@serendip/proto';
import { SfuLoads } from '../media/sfu-loads.js';
import { type SnapshotRecord, TakeSnapshot } from '../commands/take-snapshot/take-snapshot.command.js';
import { ReadSnapshot } from '../queries/snapshot/read-snapshot.query.js';

export class TakeSnapshotDto {
  @IsUUID('all', { message: 'userId must be a user id' })
  userId!: string;
}

/**
 * Media for admins: the SFU nodes' load, and server-side snapshots (take one of a user in a relayed call,
 * fetch the JPEG). The report flow (moderation) takes snapshots itself; these routes serve the dashboard and
 * operators.
 */
@Controller('admin')
@UseGuards(AdminGuard)
export class MediaAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
    private readonly loads: SfuLoads,
  ) {}

  @Get('media')
  media(): { nodes: SfuLoad[] } {
    return { nodes: this.loads.nodes() };
  }

  @Post('snapshots')
  @HttpCode(201)
  take(@Body() body: TakeSnapshotDto, @Req() req: AuthenticatedRequest): Promise<SnapshotRecord> {
    return this.commands.execute(new TakeSnapshot(body.userId, req.auth.userId));
  }

  @Get('snapshots/:snapshotId')
  async read(@Param('snapshotId') snapshotId: string, @Res() res: Response) {
    const jpeg = await this.queries.execute(new ReadSnapshot(snapshotId));
    if (!jpeg) throw new NotFoundException('No such snapshot');
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(jpeg);
  }
}
