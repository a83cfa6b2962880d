import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { accountDeletedDataSchema } from '@serendip/proto';
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { executeDecider } from '../../platform/cqrs/execute-decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { removeReportFile } from '../commands/upload-screenshot/report-files.js';
import { report } from '../domain/report.decider.js';
import { reportStream } from '../domain/report.events.js';

/**
 * A deleted account takes with it what moderation's read models say in that person's words or about them (reasons,
 * appeals, report details), and the reporters' screenshots of that person (DESIGN.md "Personal data": once the
 * account is deleted the person is gone); what the log says of each (its SHA-256, who looked) stays. A durable
 * subscription shared by all nodes: each deletion is handled once, also one that happened while every node was down.
 * The reasons and appeals are sealed under the person's key, which identity destroys.
 */
@Injectable()
export class ForgetDeletedAccounts implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(ForgetDeletedAccounts.name);
  private subscription: BusSubscription | undefined;

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap() {
    this.subscription = subscribeToIntegrationEvent(
      this.core.bus,
      {
        context: 'identity',
        type: 'AccountDeleted',
        schema: accountDeletedDataSchema,
        durable: 'moderation-forget-deleted-accounts',
      },
      this.logger,
      ({ userId }) => this.forget(userId),
    );
  }

  async onApplicationShutdown() {
    await this.subscription?.unsubscribe();
  }

  private async forget(userId: string) {
    // Their words and the words about them, as the read models hold them (the log's copies die with their key).
    await this.db
      .updateTable('moderation_bans')
      .set({ reason: '', override_reason: null, appeal_explanation: null, appeal_note: null })
      .where('user_id', '=', userId)
      .execute();
    await this.db.updateTable('moderation_warnings').set({ reason: '' }).where('user_id', '=', userId).execute();
    await this.db
      .updateTable('moderation_reports')
      .set({ details: '', resolution_note: null })
      .where('reporter_id', '=', userId)
      .execute();
    // What they wrote that someone reported.
    await this.db
      .updateTable('moderation_reports')
      .set({ content_text: null })
      .where('reported_id', '=', userId)
      .execute();
    const reports = await this.db
      .selectFrom('moderation_reports')
      .select(['report_id', 'screenshot_file'])
      .where('reported_id', '=', userId)
      .where('screenshot_file', 'is not', null)
      .execute();
    for (const { report_id, screenshot_file } of reports) {
      await removeReportFile(this.config.dataDir, screenshot_file!);
      await executeDecider(
        this.core,
        reportStream(report_id),
        report,
        { type: 'DeleteScreenshot' },
        {
          commandId: randomUUID(),
          correlationId: randomUUID(),
          actor: 'system:account-deleted',
          now: new Date(),
        },
      );
    }
  }
}
