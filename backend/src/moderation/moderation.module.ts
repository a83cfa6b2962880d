import { Global, Module } from '@nestjs/common';
import { StaffAccessModule } from '../admin/public/index.js';
import { AccountStanding, IdentityModule } from '../identity/public/index.js';
import { MatchingModule } from '../matching/public/index.js';
import { AppealBanHandler } from './commands/appeal-ban/appeal-ban.command.js';
import { BanUserHandler } from './commands/ban-user/ban-user.command.js';
import { ExpireBans } from './commands/expire-bans/expire-bans.js';
import { FileContentReportHandler } from './commands/file-content-report/file-content-report.command.js';
import { FileReportHandler } from './commands/file-report/file-report.command.js';
import { FeedModule } from '../feed/public/index.js';
import { LiftBanHandler } from './commands/lift-ban/lift-ban.command.js';
import { ResolveAppealHandler } from './commands/resolve-appeal/resolve-appeal.command.js';
import { ResolveReportHandler } from './commands/resolve-report/resolve-report.command.js';
import { Standings } from './commands/standings.js';
import { PurgeScreenshotUploads } from './commands/upload-screenshot/purge-screenshot-uploads.js';
import { ViewReportScreenshotHandler } from './commands/view-report-screenshot/view-report-screenshot.command.js';
import { UploadScreenshotHandler } from './commands/upload-screenshot/upload-screenshot.command.js';
import { ForgetDeletedAccounts } from './integration/forget-deleted-accounts.js';
import { ModerationAdminController } from './http/moderation-admin.controller.js';
import { DashModerationController } from './http/dash-moderation.controller.js';
import { ReportFeed } from './commands/report-feed.js';
import { ReportList } from './queries/report-list/report-list.js';
import { AppealQueue } from './queries/appeal-queue/appeal-queue.js';
import { ReportController } from './http/report.controller.js';
import { StandingController } from './http/standing.controller.js';
import { BanViews } from './queries/ban-info/ban-views.js';
import { PenaltySuggestions } from './queries/penalty-suggestion/penalty-suggestion.js';
import { ReviewQueue } from './queries/review-queue/review-queue.js';
import { ModerationTrail } from './queries/moderation-trail/moderation-trail.js';
import { ModerationRecords } from './public/moderation-records.js';
import { RecentCalls } from './queries/recent-calls/recent-calls.js';
import { BanStanding } from './queries/standing/ban-standing.js';
import { ModerationFigures } from './public/moderation-figures.js';

/**
 * Moderation (DESIGN.md "Conventions"): reports with evidence, bans under the penalty policy, appeals. Global only to
 * answer identity's AccountStanding port (identity asks it on every signed-in request and cannot import moderation).
 */
@Global()
@Module({
  imports: [IdentityModule, MatchingModule, StaffAccessModule, FeedModule],
  controllers: [ReportController, StandingController, ModerationAdminController, DashModerationController],
  providers: [
    { provide: AccountStanding, useClass: BanStanding },
    Standings,
    BanUserHandler,
    LiftBanHandler,
    AppealBanHandler,
    ResolveAppealHandler,
    ResolveReportHandler,
    FileReportHandler,
    FileContentReportHandler,
    UploadScreenshotHandler,
    PurgeScreenshotUploads,
    ExpireBans,
    BanViews,
    RecentCalls,
    ModerationTrail,
    ReviewQueue,
    PenaltySuggestions,
    ViewReportScreenshotHandler,
    ForgetDeletedAccounts,
    ModerationRecords,
    ReportList,
    AppealQueue,
    ReportFeed,
    ModerationFigures,
  ],
  exports: [AccountStanding, ModerationRecords, ModerationFigures],
})
export class ModerationModule {}
