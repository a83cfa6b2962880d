import { randomUUID } from 'node:crypto';
import { createHash } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  HttpCode,
  Inject,
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
import { AdminGuard, CommandMeta } from '../../identity/public/index.js';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { BanUser } from '../commands/ban-user/ban-user.command.js';
import { LiftBan } from '../commands/lift-ban/lift-ban.command.js';
import { ResolveAppeal } from '../commands/resolve-appeal/resolve-appeal.command.js';
import { ResolveReport } from '../commands/resolve-report/resolve-report.command.js';
import { readReportFile } from '../commands/upload-screenshot/report-files.js';
import { suggestPenalty } from '../domain/penalty-policy.js';
import { report } from '../domain/report.decider.js';
import { reportStream } from '../domain/report.events.js';
import { standing } from '../domain/standing.decider.js';
import { type StandingEvent, standingStream } from '../domain/standing.events.js';
import { ModerationTrail, type TrailEntry } from '../queries/moderation-trail/moderation-trail.js';
import {
  BanUserDto,
  LiftBanDto,
  PenaltySuggestionQuery,
  ResolveAppealDto,
  ResolveReportDto,
} from './moderation.dto.js';

/** Ids in the path are UUIDs: anything else names nobody (404), and never reaches a query. */
const accountId = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such user') });
const caseIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such ban') });
const reportIdOf = new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('No such report') });
const REPORTS_PAGE = 100;

/**
 * Admins' moderation actions until the dashboard exists, and what the dashboard will call (spec 6 Admin): the review
 * queue, the reporter's screenshot (every look recorded and checked against its SHA-256), the policy's suggestion,
 * banning, lifting a ban, deciding an appeal and resolving a report; and a user's audit trail. Admin only (AdminGuard,
 * before any body is read).
 */
@Controller('admin')
@UseGuards(AdminGuard)
export class ModerationAdminController {
  constructor(
    private readonly commands: CommandBus,
    private readonly trail: ModerationTrail,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** The review queue: open reports first, oldest first (status=all for every report, newest first). */
  @Get('reports')
  async reports(@Query('status') status?: string) {
    let query = this.db.selectFrom('moderation_reports').selectAll();
    query =
      status === 'all'
        ? query.orderBy('filed_at', 'desc')
        : query.where('status', '=', 'open').orderBy('filed_at', 'asc');
    const rows = await query.limit(REPORTS_PAGE).execute();
    return rows.map((r) => ({
      reportId: r.report_id,
      matchId: r.match_id,
      type: 'videosession',
      reason: r.reason,
      severity: r.severity,
      details: r.details,
      reportedByWho: r.reporter_id,
      reportedUser: r.reported_id,
      screenshot: r.screenshot_file ? `/api/admin/reports/${r.report_id}/screenshot` : null,
      screenshotSha256: r.screenshot_sha256,
      snapshot: r.snapshot_id ? `/api/admin/snapshots/${r.snapshot_id}` : null,
      snapshotSha256: r.snapshot_sha256,
      createdAt: new Date(r.filed_at).toISOString(),
      status: r.status,
      caseId: r.case_id,
    }));
  }

  @Get('reports/:reportId/screenshot')
  async screenshot(
    @Param('reportId', reportIdOf) reportId: string,
    @CommandMeta() meta: CommandMetadata,
    @Res() res: Response,
  ): Promise<void> {
    const row = await this.db
      .selectFrom('moderation_reports')
      .select(['screenshot_file', 'screenshot_sha256'])
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    if (!row?.screenshot_file) throw new NotFoundException('No screenshot for this report');
    const jpeg = await readReportFile(this.config.dataDir, row.screenshot_file);
    if (createHash('sha256').update(jpeg).digest('hex') !== row.screenshot_sha256) {
      throw new NotFoundException('The screenshot does not match its recorded SHA-256');
    }
    // Every look is its own, recorded: an Idempotency-Key must not make a second look a replay.
    await executeDecider(
      this.core,
      reportStream(reportId),
      report,
      { type: 'RecordScreenshotView' },
      {
        ...meta,
        commandId: randomUUID(),
      },
    );
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(jpeg);
  }

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
  async suggestion(
    @Param('userId', accountId) userId: string,
    @Query() query: PenaltySuggestionQuery,
  ): Promise<PenaltySuggestionView> {
    const history = (await this.core.store.readStream(standingStream(userId))).map(
      (e) => ({ type: e.type, data: e.data }) as StandingEvent,
    );
    const state = history.reduce(standing.evolve, standing.initialState);
    const { kind, tier, explanation, ...rest } = suggestPenalty(state.record, query.level, new Date());
    return { kind, tier, explanation, ...('days' in rest ? { days: rest.days } : {}) };
  }

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
  @HttpCode(200)
  async unban(
    @Param('caseId', caseIdOf) caseId: string,
    @Body() body: LiftBanDto,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<{ message: string }> {
    await this.commands.execute(new LiftBan(caseId, body.reason, meta));
    return { message: 'Ban lifted' };
  }

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

  /** Every moderation step on this user's account and reports, in order, with who did it and why. */
  @Get('users/:userId/moderation-trail')
  moderationTrail(@Param('userId', accountId) userId: string): Promise<TrailEntry[]> {
    return this.trail.of(userId);
  }
}
