import { Body, Controller, Get, HttpCode, NotFoundException, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  type ContentReportRequest,
  contentReportRequestSchema,
  type RecentCall,
  type ReportScreenshotUploaded,
  type ReportSubmitted,
} from '@serendip/proto';
import type { Response } from 'express';
import { Inject } from '@nestjs/common';
import { AuthGuard, type AuthenticatedRequest, CommandMeta } from '../../identity/public/index.js';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { invalidField } from '../../platform/cqrs/decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { FileContentReport } from '../commands/file-content-report/file-content-report.command.js';
import { FileReport } from '../commands/file-report/file-report.command.js';
import { zodBody } from '../../platform/http/zod-body.js';
import { readReportFile } from '../commands/upload-screenshot/report-files.js';
import { UploadScreenshot } from '../commands/upload-screenshot/upload-screenshot.command.js';
import { RecentCalls } from '../queries/recent-calls/recent-calls.js';
import { SubmitReportDto } from './moderation.dto.js';
import { isUuid } from '../../platform/shared/ids.js';
import { ApiAnswers } from '../../platform/api-docs/api-answers.js';

/**
 * Reporting a partner (spec 2 "Report User dialog", 7 POST /report/submit-report), the calls one may report, and
 * reporting something written in the feed.
 */
@Controller('report')
@UseGuards(AuthGuard)
export class ReportController {
  constructor(
    private readonly commands: CommandBus,
    private readonly recentCalls: RecentCalls,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** The dialog's capture, as the picture's bytes (image/jpeg, png or webp). */
  @ApiAnswers({ 429: 'Too many screenshots waiting for a report; Retry-After says when.' })
  @Post('screenshots')
  @HttpCode(201)
  upload(@Req() req: AuthenticatedRequest): Promise<ReportScreenshotUploaded> {
    const bytes: unknown = req.body;
    if (!Buffer.isBuffer(bytes) || bytes.length === 0) {
      throw invalidField('screenshot', 'send the picture itself as the body (image/jpeg, image/png or image/webp)');
    }
    return this.commands.execute(new UploadScreenshot(req.auth.userId, bytes));
  }

  /** The uploader's own screenshot, until a report takes it (the dialog's preview after a reload). */
  @Get('screenshots/:screenshotId')
  async screenshot(
    @Param('screenshotId') screenshotId: string,
    @Req() req: AuthenticatedRequest,
    @Res() res: Response,
  ): Promise<void> {
    const upload = isUuid(screenshotId)
      ? await this.db
          .selectFrom('moderation_screenshot_uploads')
          .select('file')
          .where('screenshot_id', '=', screenshotId)
          .where('uploader_id', '=', req.auth.userId)
          .executeTakeFirst()
      : undefined;
    if (!upload) throw new NotFoundException('No such screenshot');
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Cache-Control', 'private, no-store');
    res.end(await readReportFile(this.config.dataDir, upload.file));
  }

  @ApiAnswers({ 409: 'This call was already reported by the caller.', 429: 'More than 10 reports an hour.' })
  @Post('submit-report')
  @HttpCode(201)
  submit(
    @Body() body: SubmitReportDto,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<ReportSubmitted> {
    return this.commands.execute(
      new FileReport(
        req.auth.userId,
        body.matchId,
        body.reason,
        body.severity,
        body.details ?? '',
        body.screenshot,
        meta,
      ),
    );
  }

  /** A post, comment or reply of the feed, into the same queue. */
  @Post('content')
  @HttpCode(201)
  content(
    @Body(zodBody(contentReportRequestSchema)) body: ContentReportRequest,
    @Req() req: AuthenticatedRequest,
    @CommandMeta() meta: CommandMetadata,
  ): Promise<ReportSubmitted> {
    return this.commands.execute(new FileContentReport(req.auth.userId, body, meta));
  }

  @Get('recent-calls')
  calls(@Req() req: AuthenticatedRequest): Promise<RecentCall[]> {
    return this.recentCalls.of(req.auth.userId, new Date());
  }
}
