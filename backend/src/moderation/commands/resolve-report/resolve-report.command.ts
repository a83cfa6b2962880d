import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ReportOutcome } from '@serendip/proto';
import { HoldEvidence, ReleaseEvidence } from '../../../matching/public/index.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { report } from '../../domain/report.decider.js';
import { reportStream } from '../../domain/report.events.js';
import { ReportFeed } from '../report-feed.js';

export class ResolveReport extends Command<void> {
  constructor(
    readonly reportId: string,
    readonly outcome: ReportOutcome,
    readonly note: string,
    readonly caseId: string | null,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

/**
 * The review of a report (Ozone: resolve): dismissed, actioned by a ban, or false (it counts against the reporter).
 * The server's snapshot the open report held is let go (retention, or its subject's deletion, then removes it); an
 * report actioned by a ban hands it to the ban's case first, which keeps it until the ban ends.
 */
@CommandHandler(ResolveReport)
export class ResolveReportHandler implements ICommandHandler<ResolveReport> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
    private readonly feed: ReportFeed,
  ) {}

  async execute({ reportId, outcome, note, caseId, meta }: ResolveReport): Promise<void> {
    const { position } = await executeDecider(
      this.core,
      reportStream(reportId),
      report,
      { type: 'ResolveReport', outcome, note, caseId },
      meta,
    );
    if (!position) return;
    await this.core.projections.caughtUpTo(position, 5_000);
    await this.feed.announce('reportResolved', reportId, meta.commandId);
    const row = await this.db
      .selectFrom('moderation_reports')
      .select('snapshot_id')
      .where('report_id', '=', reportId)
      .executeTakeFirst();
    if (!row?.snapshot_id) return;
    // A ban keeps its evidence while it lasts; a warning, which never ends, lets retention take it.
    const ban =
      caseId &&
      (await this.db.selectFrom('moderation_bans').select('case_id').where('case_id', '=', caseId).executeTakeFirst());
    if (outcome === 'actioned' && ban) {
      await this.commands.execute(new HoldEvidence(row.snapshot_id, ban.case_id, meta.actor, meta.now));
    }
    await this.commands.execute(new ReleaseEvidence(row.snapshot_id, reportId, meta.actor, meta.now));
  }
}
