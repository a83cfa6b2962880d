import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { AccountStanding, BarredAddresses } from '../../identity/public/index.js';
import { ReleaseEvidence } from '../../matching/public/index.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { type CommandMetadata, executeDecider } from '../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import { Realtime } from '../../platform/realtime/realtime.js';
import { standing, type StandingCommand } from '../domain/standing.decider.js';
import { type StandingEvent, standingStream } from '../domain/standing.events.js';

/** How long an answer waits for the bans read model, so what the admin or the user sees next is already true. */
const READ_YOUR_WRITE_MS = 5_000;

/**
 * Runs the standing decider on a user's stream, bars or frees a permanently banned address, then tells that user's every
 * socket, on any node, whether they are banned now (spec 7 banStatusUpdated; the client checks the userId is its own),
 * and has those sockets read their access again (a banned staff member takes no staff pushes). Only this user hears it;
 * staff hear that the appeals queue changed.
 */
@Injectable()
export class Standings {
  private readonly logger = new Logger(Standings.name);
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly realtime: Realtime,
    private readonly bans: AccountStanding,
    private readonly barred: BarredAddresses,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
  ) {}

  async run(userId: string, command: StandingCommand, meta: CommandMetadata): Promise<StandingEvent[]> {
    const result = await executeDecider(this.core, standingStream(userId), standing, command, meta);
    if (!result.position) return result.events;
    await this.core.projections.caughtUpTo(result.position, READ_YOUR_WRITE_MS);
    await this.barAddresses(userId, result.events);
    await this.releaseEvidence(result.events, meta);
    await this.announceAppealQueue(result.events, meta);
    // Only what bans or frees the account: an appeal or a warning changes nothing the screens show.
    if (result.events.some((e) => e.type !== 'BanAppealed' && e.type !== 'UserWarned')) {
      const isBanned = await this.bans.isRestricted(userId, new Date());
      // One push per command: a retry of it carries the same id, and the client drops the repeat.
      await this.realtime.toUser(userId, 'banStatusUpdated', { userId, isBanned }, `ban-status-${meta.commandId}`);
      // A banned staff member hears no staff pushes (spec 6 Admin): their sockets read their access again.
      await this.realtime.refreshAccess(userId, `ban-access-${meta.commandId}`);
    }
    return result.events;
  }

  /**
   * Tells staff the appeals queue changed (an appeal filed or decided, or an appealed ban ended), so an open Appeals
   * page loads it again (spec 2 "Admin dashboard": live). A push that fails is logged: the page has it on its next load.
   */
  private async announceAppealQueue(events: StandingEvent[], meta: CommandMetadata): Promise<void> {
    for (const event of events) {
      const changed =
        event.type === 'BanAppealed' ||
        event.type === 'AppealResolved' ||
        ((event.type === 'UserUnbanned' || event.type === 'BanExpired') &&
          (await this.appealPending(event.data.caseId)));
      if (!changed) continue;
      const { caseId } = event.data;
      await this.realtime
        .toRole('staff', 'appealQueueChanged', { caseId }, `appeal-queue-${caseId}-${meta.commandId}`)
        .catch((error: Error) => this.logger.warn(`case ${caseId}: appealQueueChanged not pushed (${error.message})`));
    }
  }

  private async appealPending(caseId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('moderation_bans')
      .select('appeal_status')
      .where('case_id', '=', caseId)
      .executeTakeFirst();
    return row?.appeal_status === 'pending';
  }

  /** A ban that ended lets go of the server snapshots its case held (the reports it acted on). */
  private async releaseEvidence(events: StandingEvent[], meta: CommandMetadata): Promise<void> {
    for (const event of events) {
      const ended =
        event.type === 'UserUnbanned' ||
        event.type === 'BanExpired' ||
        (event.type === 'AppealResolved' && event.data.outcome === 'approved');
      if (!ended) continue;
      const held = await this.db
        .selectFrom('moderation_reports')
        .select('snapshot_id')
        .where('case_id', '=', event.data.caseId)
        .where('snapshot_id', 'is not', null)
        .execute();
      for (const { snapshot_id } of held) {
        // The ban has ended either way: a snapshot already gone is nothing to let go of.
        await this.commands
          .execute(new ReleaseEvidence(snapshot_id!, event.data.caseId, meta.actor, meta.now))
          .catch((error: Error) => this.logger.warn(`case ${event.data.caseId}: release failed (${error.message})`));
      }
    }
  }

  /** A permanent ban bars the account's address from new accounts (ban evasion); its reversal frees it. */
  private async barAddresses(userId: string, events: StandingEvent[]): Promise<void> {
    for (const event of events) {
      if (event.type === 'UserBanned' && event.data.expiresAt === null)
        await this.barred.bar(userId, event.data.caseId);
      if (event.type === 'UserUnbanned' || (event.type === 'AppealResolved' && event.data.outcome === 'approved')) {
        await this.barred.lift(event.data.caseId);
      }
    }
  }
}
