import {
  Body,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  NotFoundException,
  Param,
  Post,
  Req,
  Res,
  UseGuards,
} from '@nestjs/common';
import { IsUUID } from 'class-validator';
import type { Response } from 'express';
import { readUserInfo } from '../../identity/accounts/user-info.js';
import { AuthGuard, type AuthenticatedRequest } from '../../identity/http/auth.guard.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import type { SfuLoad } from '@serendip/proto';
import { SfuLoads } from '../media/sfu-loads.js';
import { type SnapshotRecord, SnapshotService } from '../media/snapshot.service.js';

export class TakeSnapshotDto {
  @IsUUID('all', { message: 'userId must be a user id' })
  userId!: string;
}

/**
 * Media for admins (issue 8): the SFU nodes' load, and server-side snapshots (take one of a user in a relayed call,
 * fetch the JPEG). The report flow (moderation) takes snapshots itself; these routes serve the dashboard and
 * operators.
 */
@Controller('admin')
@UseGuards(AuthGuard)
export class MediaAdminController {
  constructor(
    private readonly snapshots: SnapshotService,
    private readonly loads: SfuLoads,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  @Get('media')
  async media(@Req() req: AuthenticatedRequest): Promise<{ nodes: SfuLoad[] }> {
    await this.requireAdmin(req);
    return { nodes: this.loads.nodes() };
  }

  @Post('snapshots')
  @HttpCode(201)
  async take(@Body() body: TakeSnapshotDto, @Req() req: AuthenticatedRequest): Promise<SnapshotRecord> {
    await this.requireAdmin(req);
    return this.snapshots.take(body.userId, req.auth.userId);
  }

  @Get('snapshots/:snapshotId')
  async read(@Param('snapshotId') snapshotId: string, @Req() req: AuthenticatedRequest, @Res() res: Response) {
    await this.requireAdmin(req);
    const jpeg = await this.snapshots.read(snapshotId);
    if (!jpeg) throw new NotFoundException('No such snapshot');
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(jpeg);
  }

  private async requireAdmin(req: AuthenticatedRequest) {
    const user = await readUserInfo(this.db, req.auth.userId, new Date());
    if (!user?.isAdmin) throw new ForbiddenException('Only admins may do that');
  }
}
