import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import {
  checkContract,
  pairSeparatedDataSchema,
  roomLostSchema,
  SFU_SUBJECTS,
  SKIP_COOLDOWN_MS,
  userBannedDataSchema,
} from '@serendip/proto';
import type { z } from 'zod/mini';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusMessage, BusSubscription } from '../../platform/messaging/message-bus.js';
import { eventSubject } from '../../platform/messaging/subjects.js';
import { RecordMatchDecision } from '../commands/record-match-decision/record-match-decision.command.js';
import type { MatchDecision } from '../domain/match.decider.js';
import { Matchmaker } from '../domain/matchmaker.js';
import { videoSubject } from '../gateway/video-subject.js';
import { SfuClient } from '../media/sfu-client.js';
import { SfuLoads } from '../media/sfu-loads.js';
import { LiveMatching } from '../public/live-matching.js';
import {
  GATEWAY_ALIVE_SUBJECT,
  gatewayAliveSchema,
  MATCHING_REQUESTS_SUBJECT,
  MATCHMAKER_LEADS_SUBJECT,
  MATCHMAKER_QUEUE,
  parseCoordinatorRequest,
} from './coordinator.messages.js';
import { iceServersFor } from './ice-servers.js';
import { LeaderLock } from './leader-lock.js';
import { MatchCoordinator } from './match-coordinator.js';

/** How long a new leader waits for the read models to take in what was published before it listened. */
const READ_MODEL_WAIT_MS = 5_000;

/**
 * Runs the matchmaker on the node that holds the leader lock (DESIGN.md: a single writer; the other nodes' gateways
 * reach it over the bus). While this node leads it takes the matching requests and records every pairing and ending.
 */
@Injectable()
export class MatchmakerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(MatchmakerService.name);
  private readonly lock: LeaderLock;
  private coordinator: MatchCoordinator | undefined;
  private subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) private readonly config: Config,
    private readonly sfu: SfuClient,
    private readonly loads: SfuLoads,
    private readonly commands: CommandBus,
    private readonly live: LiveMatching,
  ) {
    this.lock = new LeaderLock({
      databaseUrl: core.databaseUrl,
      name: 'serendip:matchmaker',
      logger: this.logger,
      onAcquired: () => this.lead(),
      onLost: () => this.standDown(),
    });
  }

  async onApplicationBootstrap() {
    await this.lock.start();
  }

  async onApplicationShutdown() {
    await this.standDown();
    await this.lock.stop();
  }

  /** True on the node that runs the matchmaker now. */
  get leads(): boolean {
    return this.coordinator !== undefined;
  }

  private async lead() {
    const coordinator = new MatchCoordinator({
      matchmaker: new Matchmaker(),
      deliver: (userId, delivery) =>
        this.core.bus.publish({ subject: videoSubject(userId), id: randomUUID(), data: delivery }),
      record: (command) => this.record(command),
      iceServers: (userId) => iceServersFor(userId, this.config.ice, new Date()),
      media: {
        mode: this.config.media.mode,
        relayAvailable: () => this.loads.relayAvailable(),
        openRoom: async (matchId, userIds, on) => {
          // The node named gives back the room it still holds (a call that outlived a leader); if it cannot, any node.
          const kept = on ? await this.sfu.createRoomOn(on, matchId, userIds).catch(() => undefined) : undefined;
          return (kept ?? (await this.sfu.createRoom(matchId, userIds))).nodeId;
        },
        closeRoom: async (matchId, sfuNode) =>
          void (await this.sfu.send(sfuNode, { type: 'closeRoom', roomId: matchId })),
      },
      now: () => Date.now(),
      newId: () => randomUUID(),
      onError: (error, what) => this.logger.error(`${what} failed: ${(error as Error).message}`),
    });
    // Separations recorded from now on are heard before those already recorded are read, so none falls between.
    this.subscriptions = [
      this.core.bus.subscribe(eventSubject('matching', 'PairSeparated'), (message) => {
        const separated = this.integrationData(message, pairSeparatedDataSchema, 'PairSeparated');
        if (separated) coordinator.keepApart(...separated.userIds);
      }),
    ];
    await this.ready(this.subscriptions);
    // One published just before that subscription may not be in the read model yet: it is waited for (briefly).
    const published = this.core.publisher.position;
    if (published) {
      await this.core.projections
        .caughtUpTo(published, READ_MODEL_WAIT_MS)
        .catch(() => this.logger.warn('leading before the read models caught up with the log'));
    }
    // What the log holds from before this node led: reported pairs stay apart for good, skips for their cooldown.
    const separated = await this.db.selectFrom('matching_separated_pairs').select(['user_a', 'user_b']).execute();
    for (const pair of separated) coordinator.keepApart(pair.user_a, pair.user_b);
    const since = new Date(Date.now() - SKIP_COOLDOWN_MS);
    const skips = await this.db
      .selectFrom('matches')
      .select(['user_a', 'user_b', 'ended_at'])
      .where('end_reason', '=', 'skip')
      .where('ended_at', '>=', since)
      .execute();
    for (const skip of skips) coordinator.rememberSkip(skip.user_a, skip.user_b, new Date(skip.ended_at!).getTime());
    this.coordinator = coordinator;
    this.live.lead(() => coordinator.liveCounts());
    // From its first request on: a page that comes back to its call may ask before its partner's gateway has told.
    coordinator.takeOver();
    const requests = [
      // A request that does not fit the contract (a gateway of another version, a bug) is dropped with the field at
      // fault; the reason names fields only, never the personal data a request carries.
      this.core.bus.subscribe(
        MATCHING_REQUESTS_SUBJECT,
        (message) => {
          const request = parseCoordinatorRequest(message.data, (reason) =>
            this.logger.warn(`matching request dropped: ${reason}`),
          );
          // Not awaited: the bus would hold the next request until this one's SFU room is made. The coordinator
          // keeps the arrival order itself.
          if (request) void coordinator.handle(request);
        },
        { queue: MATCHMAKER_QUEUE },
      ),
      // A room the SFU lost with its worker is made again, and both sides rejoin it.
      this.core.bus.subscribe(SFU_SUBJECTS.roomLost, (message) => {
        const lost = checkContract(roomLostSchema, message.data);
        if (!lost.ok) {
          this.logger.warn(`lost-room report dropped: ${lost.reason}`);
          return;
        }
        void coordinator.handle({ kind: 'room-lost', matchId: lost.value.roomId, sfuNode: lost.value.nodeId });
      }),
      // Every gateway node's heartbeat: one that stops has died, and the sockets it held are lost.
      this.core.bus.subscribe(GATEWAY_ALIVE_SUBJECT, (message) => {
        const alive = checkContract(gatewayAliveSchema, message.data);
        // A node only cut off from the bus for a while: its gateway tells again, as it does a new leader.
        if (alive.ok && coordinator.nodeAlive(alive.value.node) === 'back') void this.announce();
      }),
      // A ban ends the banned user's call at once (the gateways close their sockets); a plain subscription: only the
      // leader holds calls, and one that missed it (a handover) still ends the call when the sockets go.
      this.core.bus.subscribe(eventSubject('moderation', 'UserBanned'), (message) => {
        const banned = this.integrationData(message, userBannedDataSchema, 'UserBanned');
        if (banned) void coordinator.handle({ kind: 'banned', userId: banned.userId });
      }),
    ];
    this.subscriptions.push(...requests);
    await this.ready(requests);
    // The window runs from the announcement the gateways answer.
    coordinator.takeOver();
    await this.announce();
  }

  /** Every gateway puts its searching sockets back in the queue and tells of its calls (adopt). */
  private async announce() {
    await this.core.bus
      .publish({ subject: MATCHMAKER_LEADS_SUBJECT, id: randomUUID(), data: {} })
      .catch((error: Error) => this.logger.error(`new leader not announced: ${error.message}`));
  }

  /** An integration event's data, or undefined (and a warning naming the fields at fault) when it does not fit. */
  private integrationData<S extends z.ZodMiniType>(
    message: BusMessage,
    schema: S,
    type: string,
  ): z.output<S> | undefined {
    const checked = checkContract(schema, (message.data as { data?: unknown } | null)?.data);
    if (checked.ok) return checked.value;
    this.logger.warn(`${type} dropped: ${checked.reason}`);
    return undefined;
  }

  private async ready(subscriptions: BusSubscription[]) {
    await Promise.all(subscriptions.map((s) => (s as BusSubscription & { ready?: Promise<void> }).ready));
  }

  private async standDown() {
    const subscriptions = this.subscriptions.splice(0);
    await Promise.all(subscriptions.map((s) => s.unsubscribe()));
    this.live.standDown();
    this.coordinator?.stop();
    this.coordinator = undefined;
  }

  private async record(decision: MatchDecision) {
    await this.commands.execute(new RecordMatchDecision(decision));
  }
}
