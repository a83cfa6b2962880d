import { Injectable, Logger } from '@nestjs/common';
import { Realtime } from '../../platform/realtime/realtime.js';
import { ReportList } from '../queries/report-list/report-list.js';

/**
 * Tells every staff socket (admins and moderators, on any node) about a report as the dashboard's table lists it: a
 * new one appears without a reload, and a reviewed one shows its outcome, so two moderators do not act on the same one.
 * Called once the reports read model has the change (the table reads the same row). A push that fails is logged:
 * the table still has it on the next load.
 */
@Injectable()
export class ReportFeed {
  private readonly logger = new Logger(ReportFeed.name);

  constructor(
    private readonly realtime: Realtime,
    private readonly reports: ReportList,
  ) {}

  /** `commandId`: one push per command, so a retry carries the same id and the client drops the repeat. */
  async announce(event: 'reportFiled' | 'reportResolved', reportId: string, commandId: string): Promise<void> {
    try {
      const listed = await this.reports.one(reportId);
      if (!listed) return;
      await this.realtime.toRole('staff', event, listed, `${event}-${reportId}-${commandId}`);
    } catch (error) {
      this.logger.warn(`report ${reportId}: ${event} not pushed (${(error as Error).message})`);
    }
  }
}
