import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { accountDeletedDataSchema, banEndedDataSchema, userBannedDataSchema } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { DomainError } from '../../platform/cqrs/decider.js';
import type { CommandMetadata } from '../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { ChangeContribution } from '../commands/change-contribution/change-contribution.command.js';
import { DeletePost } from '../commands/delete-post/delete-post.command.js';
import { LikePost } from '../commands/like-post/like-post.command.js';
import { FeedImages } from '../images/feed-images.js';

// Each deletion's command id comes from the account's deletion and what it deletes: a redelivery repeats nothing.
const FORGET_NAMESPACE = 'd2e4f6a8-0b1c-4d3e-9f5a-7b9c1d3e5f70';

/**
 * Who wrote what follows the account (spec 2 "Banned-account screen"; DESIGN.md "Personal data"): a banned person's
 * posts, comments and replies are hidden while the ban is on, and a deleted account's are deleted with it (as events,
 * so every page drops them live and a rebuild agrees), its likes taken back. Durable subscriptions shared by all nodes.
 */
@Injectable()
export class FeedStanding implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FeedStanding.name);
  private subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    @Inject(DATABASE) private readonly db: Db,
    private readonly commands: CommandBus,
    private readonly images: FeedImages,
  ) {}

  onApplicationBootstrap() {
    const bus = this.core.bus;
    this.subscriptions = [
      subscribeToIntegrationEvent(
        bus,
        { context: 'moderation', type: 'UserBanned', schema: userBannedDataSchema, durable: 'feed-hide-banned' },
        this.logger,
        async ({ userId, caseId }) => {
          await this.db
            .insertInto('feed_hidden_authors')
            .values({ case_id: caseId, user_id: userId })
            .onConflict((c) => c.column('case_id').doNothing())
            .execute();
        },
      ),
      subscribeToIntegrationEvent(
        bus,
        { context: 'moderation', type: 'BanEnded', schema: banEndedDataSchema, durable: 'feed-show-unbanned' },
        this.logger,
        async ({ caseId }) => {
          await this.db.deleteFrom('feed_hidden_authors').where('case_id', '=', caseId).execute();
        },
      ),
      subscribeToIntegrationEvent(
        bus,
        {
          context: 'identity',
          type: 'AccountDeleted',
          schema: accountDeletedDataSchema,
          durable: 'feed-forget-deleted',
        },
        this.logger,
        ({ userId }, eventId) => this.forget(userId, eventId),
      ),
    ];
  }

  async onApplicationShutdown() {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }

  private async forget(userId: string, eventId: string) {
    const meta = (target: string): CommandMetadata => {
      const commandId = uuidv5(`${eventId}:${target}`, FORGET_NAMESPACE);
      return { commandId, correlationId: eventId, actor: 'system', now: new Date() };
    };
    const [posts, contributions, likes] = await Promise.all([
      this.db.selectFrom('feed_posts').select('post_id').where('author_id', '=', userId).execute(),
      this.db.selectFrom('feed_contributions').select(['id', 'kind']).where('author_id', '=', userId).execute(),
      this.db.selectFrom('feed_likes').select('post_id').where('user_id', '=', userId).execute(),
    ]);
    for (const { post_id } of posts)
      await gone(this.commands.execute(new DeletePost(post_id, 'system', meta(post_id))));
    for (const { id, kind } of contributions)
      await gone(this.commands.execute(new ChangeContribution(id, kind, { type: 'Delete', by: 'system' }, meta(id))));
    for (const { post_id } of likes)
      await gone(this.commands.execute(new LikePost(post_id, userId, false, meta(`like:${post_id}`))));
    await this.images.removeUnpostedOf(userId);
  }
}

/** Already gone (deleted with its post, say): nothing left to do. */
async function gone(done: Promise<unknown>) {
  try {
    await done;
  } catch (error) {
    if (!(error instanceof DomainError && error.kind === 'not-found')) throw error;
  }
}
