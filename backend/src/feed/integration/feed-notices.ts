import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { type FeedChangeData, feedChangeDataSchema, type FeedIntegrationType } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { UserDirectory } from '../../identity/public/index.js';
import { NO_SUCH_RECIPIENT, type NewNotification, SendNotification } from '../../notifications/public/index.js';
import { DomainError } from '../../platform/cqrs/decider.js';
import { EVENT_CORE, type EventCore } from '../../platform/event-core/event-core.js';
import type { BusSubscription } from '../../platform/messaging/message-bus.js';
import { subscribeToIntegrationEvent } from '../../platform/messaging/integration-event-subscription.js';
import { isErased } from '../../platform/personal-data/personal-data-vault.js';
import { commentStream, replyStream } from '../domain/feed.events.js';

// A notice's id comes from what it tells: a like taken back and given again is told once.
const NOTICE_NAMESPACE = '9a3c5e7f-1b2d-4e6a-8c0f-2d4b6a8e0c13';

const postLink = (postId: string) => `/feed/post/${postId}`;

/**
 * What the feed tells people (spec 2 "Comment Removed", 4 "Notifications"): someone liked your post, commented on it
 * or replied to your comment; your comment or reply was removed (forced open, with its words, date and violations);
 * your appeal of a removal was decided. Durable subscriptions shared by all nodes: each told once.
 */
@Injectable()
export class FeedNotices implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FeedNotices.name);
  private subscriptions: BusSubscription[] = [];

  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly commands: CommandBus,
    private readonly users: UserDirectory,
  ) {}

  onApplicationBootstrap() {
    const on = (type: FeedIntegrationType, handle: (data: FeedChangeData, eventId: string) => Promise<void>) =>
      subscribeToIntegrationEvent(
        this.core.bus,
        { context: 'feed', type, schema: feedChangeDataSchema, durable: `feed-notices-${type}` },
        this.logger,
        handle,
      );
    this.subscriptions = [
      on('PostLiked', async ({ postId, authorId, userId }) => {
        if (!userId || userId === authorId) return;
        const name = await this.nameOf(userId);
        await this.tell(`post-liked:${postId}:${userId}`, authorId, {
          kind: 'post-liked',
          title: 'New like',
          description: `${name} liked your post.`,
          link: postLink(postId),
        });
      }),
      on('CommentAdded', async ({ postId, id, authorId, answersAuthorId }) => {
        if (!id || !answersAuthorId || answersAuthorId === authorId) return;
        if (await this.wasRemoved(commentStream(id))) return;
        const name = await this.nameOf(authorId);
        await this.tell(`post-commented:${id}`, answersAuthorId, {
          kind: 'post-commented',
          title: 'New comment',
          description: `${name} commented on your post.`,
          link: postLink(postId),
        });
      }),
      on('ReplyAdded', async ({ postId, id, authorId, answersAuthorId }) => {
        if (!id || !answersAuthorId || answersAuthorId === authorId) return;
        if (await this.wasRemoved(replyStream(id))) return;
        const name = await this.nameOf(authorId);
        await this.tell(`comment-replied:${id}`, answersAuthorId, {
          kind: 'comment-replied',
          title: 'New reply',
          description: `${name} replied to your comment.`,
          link: postLink(postId),
        });
      }),
      on('CommentRemoved', (data, eventId) => this.removed(commentStream(data.id ?? ''), data, eventId)),
      on('ReplyRemoved', (data, eventId) => this.removed(replyStream(data.id ?? ''), data, eventId)),
      on('RemovalAppealDecided', async ({ postId, id, authorId, outcome }, eventId) => {
        const approved = outcome === 'approved';
        const note = id ? await this.decisionNote(id, eventId) : undefined;
        await this.tell(`removal-appeal-decided:${eventId}`, authorId, {
          kind: 'removal-appeal-decided',
          title: approved ? 'Your appeal was approved' : 'Your appeal was rejected',
          description:
            (approved
              ? 'We looked at your comment again and put it back.'
              : 'We looked at your comment again and it stays removed under our community guidelines.') +
            (note ? ` Note from our team: ${note}` : ''),
          link: postLink(postId),
          ...(id ? { details: { removedId: id, postId } } : {}),
        });
      }),
    ];
  }

  async onApplicationShutdown() {
    await Promise.all(this.subscriptions.map((s) => s.unsubscribe()));
  }

  /** 'Comment Removed' (spec 2): forced open, with the words as written, when, and what they violated. */
  private async removed(stream: string, { postId, id, authorId }: FeedChangeData, eventId: string) {
    if (!id) return;
    const events = await this.core.store.readStream(stream);
    const added = events.find((e) => e.type === 'CommentAdded' || e.type === 'ReplyAdded');
    const removal = events.find((e) => e.id === eventId);
    const text = (added?.data as { text?: unknown } | undefined)?.text;
    // The author deleted the account meanwhile: no one to tell.
    if (!added || typeof text !== 'string' || isErased(text)) return;
    const removed = removal?.data as { categories?: string[]; reason?: unknown } | undefined;
    // The filter's categories, or the staff member's reason (opened from the log; erased reads as none).
    const categories = removed?.categories?.length
      ? removed.categories
      : [typeof removed?.reason === 'string' && removed.reason ? removed.reason : 'Removed by a moderator'];
    await this.tell(`comment-removed:${eventId}`, authorId, {
      kind: 'comment-removed',
      title: 'Comment Removed',
      description:
        'Your comment was removed because it violates our policy and community guidelines. If you believe this was a mistake, you can appeal.',
      forceOpen: true,
      link: postLink(postId),
      details: {
        text,
        postedAt: added.metadata.occurredAt,
        categories,
        removedBy: removed?.categories?.length ? 'filter' : 'staff',
        removedId: id,
        postId,
      },
    });
  }

  /** The staff member's note on their decision (sealed in the log as the author's; opened here for them). */
  private async decisionNote(id: string, eventId: string): Promise<string | undefined> {
    for (const stream of [commentStream(id), replyStream(id)]) {
      const decided = (await this.core.store.readStream(stream)).find((e) => e.id === eventId);
      const note = (decided?.data as { note?: unknown } | undefined)?.note;
      if (decided) return typeof note === 'string' && note.trim() ? note.trim() : undefined;
    }
    return undefined;
  }

  private async wasRemoved(stream: string): Promise<boolean> {
    const events = await this.core.store.readStream(stream);
    return events.some((e) => e.type === 'CommentRemoved' || e.type === 'ReplyRemoved');
  }

  private async nameOf(userId: string): Promise<string> {
    return (await this.users.firstNames([userId])).get(userId) || 'Someone';
  }

  private async tell(
    cause: string,
    recipientId: string,
    notice: Pick<NewNotification, 'kind' | 'title' | 'description'> & Partial<NewNotification>,
  ) {
    const notificationId = uuidv5(cause, NOTICE_NAMESPACE);
    try {
      await this.commands.execute(
        new SendNotification(
          { forceOpen: false, sentBy: 'system', ...notice, notificationId, recipientId },
          { commandId: notificationId, correlationId: notificationId, actor: 'system', now: new Date() },
        ),
      );
    } catch (error) {
      // A deleted account has no one left to tell; anything else is retried by the subscription.
      if (error instanceof DomainError && error.code === NO_SUCH_RECIPIENT) return;
      throw error;
    }
  }
}
