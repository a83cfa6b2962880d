import { Logger, Module } from '@nestjs/common';
import { IdentityModule } from '../identity/public/identity-module.js';
import { EVENT_CORE, type EventCore } from '../platform/event-core/event-core.js';
import { MatchmakerService } from './coordinator/matchmaker.service.js';
import { VideoGateway } from './gateway/video.gateway.js';
import { FeedbackController } from './http/feedback.controller.js';
import { MatchPreferencesController } from './http/match-preferences.controller.js';
import { MediaAdminController } from './http/media-admin.controller.js';
import { EmbeddedSfu } from './media/embedded-sfu.js';
import { SfuClient } from './media/sfu-client.js';
import { SfuLoads } from './media/sfu-loads.js';
import { GiveFeedbackHandler } from './commands/give-feedback/give-feedback.command.js';
import { SaveMatchPreferencesHandler } from './commands/save-match-preferences/save-match-preferences.command.js';
import { GetMatchPreferencesHandler } from './queries/match-preferences/match-preferences.query.js';
import { RecordMatchDecisionHandler } from './commands/record-match-decision/record-match-decision.command.js';
import { TakeSnapshotHandler } from './commands/take-snapshot/take-snapshot.command.js';
import { DeleteSnapshotHandler } from './commands/delete-snapshot/delete-snapshot.command.js';
import { HoldEvidenceHandler, ReleaseEvidenceHandler } from './commands/hold-evidence/hold-evidence.command.js';
import { EvidenceRetention } from './commands/purge-expired-evidence/evidence-retention.js';
import { PurgeExpiredEvidenceHandler } from './commands/purge-expired-evidence/purge-expired-evidence.command.js';
import { ViewSnapshotHandler } from './commands/view-snapshot/view-snapshot.command.js';
import { DeleteEvidenceOfDeletedAccounts } from './integration/delete-evidence-of-deleted-accounts.js';
import { SeparateReportedPairs } from './integration/separate-reported-pairs.js';
import { SeparatePairHandler } from './commands/separate-pair/separate-pair.command.js';
import { CallRecords } from './public/call-records.js';
import { LiveMatching } from './public/live-matching.js';
import { GetSnapshotAuditHandler } from './queries/snapshot/snapshot-audit.query.js';

/** Matching (DESIGN.md "Conventions"): the queue, calls, their media and feedback, and the pairs kept apart. */
@Module({
  imports: [IdentityModule],
  controllers: [FeedbackController, MatchPreferencesController, MediaAdminController],
  providers: [
    VideoGateway,
    MatchmakerService,
    {
      provide: SfuClient,
      useFactory: (core: EventCore) => {
        const logger = new Logger(SfuClient.name);
        return new SfuClient(core.bus, undefined, (what) => logger.error(`the SFU failed: ${what}`));
      },
      inject: [EVENT_CORE],
    },
    EmbeddedSfu,
    SfuLoads,
    GiveFeedbackHandler,
    SaveMatchPreferencesHandler,
    GetMatchPreferencesHandler,
    RecordMatchDecisionHandler,
    TakeSnapshotHandler,
    ViewSnapshotHandler,
    GetSnapshotAuditHandler,
    HoldEvidenceHandler,
    ReleaseEvidenceHandler,
    DeleteSnapshotHandler,
    PurgeExpiredEvidenceHandler,
    EvidenceRetention,
    DeleteEvidenceOfDeletedAccounts,
    SeparatePairHandler,
    SeparateReportedPairs,
    CallRecords,
    LiveMatching,
  ],
  // Through public/ only (public/index.ts): what moderation reads of calls; the dashboard's live figures and SFU load.
  exports: [CallRecords, LiveMatching, SfuLoads],
})
export class MatchingModule {}
