import {
  Body,
  Controller,
  Get,
  HttpCode,
  NotFoundException,
  Param,
  ParseUUIDPipe,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { PenaltySuggestionView } from '@serendip/proto';
import type { Response } from 'express';
import { RecordStaffAccess } from '../../admin/public/index.js';
import { AdminGuard, CommandMeta, StaffGuard } from '../../identity/public/index.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { BanUser } from '../commands/ban-user/ban-user.command.js';
import { LiftBan } from '../commands/lift-ban/lift-ban.command.js';
import { ResolveAppeal } from '../commands/resolve-appeal/resolve-appeal.command.js';
import { ResolveReport } from '../commands/resolve-report/resolve-report.command.js';
import { ViewReportScreenshot } from '../commands/view-report-screenshot/view-report-screenshot.command.js';
import { ModerationTrail, type TrailEntry } from '../queries/moderation-trail/moderation-trail.js';
import { PenaltySuggestions } from '../queries/penalty-suggestion/penalty-suggestion.js';
import { ReviewQueue } from '../queries/review-queue/review-queue.js';
import {
  BanUserDto,
  LiftBanDto,
  PenaltySuggestionQuery,
  ResolveAppealDto,
  ResolveReportDto,
} from './moderation.dto.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/** Ids in the path are UUIDs: anything else names nobody (404), and never reaches a query. */
const accountId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such user') });
const caseIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such ban') });
const reportIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such report') });

/**
 * Moderation actions the dashboard calls (spec 6 Admin): the review queue, the reporter's screenshot (every look
 * recorded and checked against its SHA-256), the policy's suggestion, banning, lifting a ban, deciding an appeal and
 * resolving a report; and a user's audit trail. Moderators review reports and appeals as admins do (StaffGuard, before
 * any body is read); lifting a ban outside an appeal overrules a colleague's decision, so it stays an admin's call
 * (AdminGuard), as does the decrypted moderation trail. How long a moderator may ban for is the BanUser handler's
 * rule; which appeals a moderator may decide, the ResolveAppeal handler's.
 */
@Controller('admin')
@UseGuards(StaffGuard)
export class ModerationAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly trail: ModerationTrail,
    private readonly queue: ReviewQueue,
    private readonly suggestions: PenaltySuggestions,
    private readonly access: RecordStaffAccess,
  ) {}

  /** The review queue: open reports first, oldest first (status=all for every report, newest first). */
  @Get('reports')
  reports(@Query('status') status?: string) {
    return this.queue.reports(status === 'all');
  }

  @Get('reports/:reportId/screenshot')
  async screenshot(
    @Param('reportId', reportIdOf) reportId: string,
    @CommandMeta() meta: CommandMetadata,
    @Res() res: Response,
  ): Promise<void> {
    const jpeg = await this.commands.execute(new ViewReportScreenshot(reportId, meta));
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(jpeg);
  }

  @ApiAnswers({ 409: 'The report was already reviewed.' })
  @Post('reports/:reportId/resolve')
  @HttpCode(200)
  async resolveReport(
    @Param('reportId', reportIdOf) reportId: string,
    @Body() body: ResolveReportDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new ResolveReport(reportId, body.outcome, body.note ?? '', null, meta));
    return { message: `Report marked ${body.outcome}` };
  }

  /** What the penalty policy suggests for a new violation of this user's at `level` (spec 9 tiers). */
  @Get('users/:userId/penalty-suggestion')
  suggestion(
    @Param('userId', accountId) userId: string,
    @Query() query: PenaltySuggestionQuery,
  ): Promise<PenaltySuggestionView> {
    return this.suggestions.for(userId, query.level, new Date());
  }

  @ApiAnswers({
    403: 'Only an admin may ban for longer than 30 days.',
    409: 'Already banned, or the report named was already reviewed.',
  })
  @Post('users/:userId/ban')
  @HttpCode(201)
  ban(
    @Param('userId', accountId) userId: string,
    @Body() body: BanUserDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ caseId: string }> {
    const penalty =
      body.penalty.kind === 'restriction'
        ? ({ kind: 'restriction', days: body.penalty.days ?? 0 } as const)
        : ({ kind: body.penalty.kind } as const);
    return this.commands.execute(
      new BanUser(userId, body.reason, body.level, penalty, body.overrideReason, body.reportId, meta),
    );
  }

  @Post('bans/:caseId/unban')
  @UseGuards(AdminGuard)
  @HttpCode(200)
  async unban(
    @Param('caseId', caseIdOf) caseId: string,
    @Body() body: LiftBanDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new LiftBan(caseId, body.reason, meta));
    return { message: 'Ban lifted' };
  }

  @ApiAnswers({ 409: 'The appeal was already decided.' })
  @Post('bans/:caseId/appeal')
  @HttpCode(200)
  async decideAppeal(
    @Param('caseId', caseIdOf) caseId: string,
    @Body() body: ResolveAppealDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new ResolveAppeal(caseId, body.outcome, body.note, meta));
    return { message: `Appeal ${body.outcome}` };
  }

  /**
   * Every moderation step on this user's account and reports, in order, with who did it and why: decrypted reasons,
   * appeal explanations and report details, so admins only (moderators read the dashboard's audit trail, where they
   * are hidden). Every read is an access record (StaffViewedUser) on the person's audit trail, as the dashboard's are.
   */
  @Get('users/:userId/moderation-trail')
  @UseGuards(AdminGuard)
  async moderationTrail(
    @Param('userId', accountId) userId: string,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<TrailEntry[]> {
    await this.access.record(userId, 'moderation-trail', meta);
    return this.trail.of(userId);
  }
}
