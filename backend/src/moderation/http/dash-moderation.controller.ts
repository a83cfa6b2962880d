import { Controller, Get, Query, Req, Res, UseGuards } from '@nestjs/common';
import { type DashAppealsPage, type DashReport, TOTAL_COUNT_HEADER, TOTAL_PAGES_HEADER } from '@serendip/proto';
import type { Response } from 'express';
import { type AuthenticatedRequest, StaffGuard, UserDirectory } from '../../identity/public/index.js';
import { AppealQueue } from '../queries/appeal-queue/appeal-queue.js';
import { ReportList } from '../queries/report-list/report-list.js';
import { DashPageQueryDto, DashReportQueryDto } from './moderation.dto.js';

/**
 * The dashboard's report table and appeals queue (spec 2 "Reports page", spec 7 GET /dash/report/get-all), for admins
 * and moderators alike (StaffGuard, before any query is read). Acting on a report or an appeal goes through the
 * moderation routes under /api/admin.
 */
@Controller('dash')
@UseGuards(StaffGuard)
export class DashModerationController {
  constructor(
    private readonly reports: ReportList,
    private readonly appeals: AppealQueue,
    private readonly users: UserDirectory,
  ) {}

  /**
   * spec 7: the answer stays the spec's array of reports; newest first, a page of 25; the paging goes in headers
   * (X-Total-Count, X-Total-Pages). Every status unless `status` narrows it. Each says whether the viewer may review it
   * (canReview: not a report they filed or one about them).
   */
  @Get('report/get-all')
  async reportsPage(
    @Query() query: DashReportQueryDto,
    @Req() req: AuthenticatedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DashReport[]> {
    const { items, total, totalPages } = await this.reports.page(
      { page: query.page ?? 1, status: query.status ?? 'all', severity: query.severity, reason: query.reason },
      req.auth.userId,
    );
    res.setHeader(TOTAL_COUNT_HEADER, String(total));
    res.setHeader(TOTAL_PAGES_HEADER, String(totalPages));
    res.setHeader('Cache-Control', 'private, no-store');
    return items;
  }

  /** Pending appeals of bans still on, oldest first, each with its ban, its evidence and whether the viewer decides it. */
  @Get('appeals')
  async appealsPage(@Query() query: DashPageQueryDto, @Req() req: AuthenticatedRequest): Promise<DashAppealsPage> {
    const viewer = { id: req.auth.userId, role: await this.users.roleOf(req.auth.userId) };
    return this.appeals.page(query.page ?? 1, viewer);
  }
}
