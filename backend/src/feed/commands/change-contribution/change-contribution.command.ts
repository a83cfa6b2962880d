import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { FEED_ERRORS } from '@serendip/proto';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { isUuid } from '../../../platform/shared/ids.js';
import {
  contribution,
  type ContributionCommand,
  CONTRIBUTION_NOT_FOUND,
  type ContributionKind,
} from '../../domain/contribution.decider.js';
import { commentStream, replyStream } from '../../domain/feed.events.js';
import { FeedLive } from '../../integration/feed-live.js';
import { contributionNow, readYourWrite } from '../feed-streams.js';

/** What may happen to a comment or reply once written: deleted, removed by staff, its removal appealed or decided. */
export type ContributionChange = Exclude<ContributionCommand, { type: 'Add' }>;

/**
 * One change to a comment or reply, named by its id (`kind` when the route says which; else found from its stream).
 * The decider says who may: the author deletes and appeals, staff remove and decide (their routes check the role).
 */
export class ChangeContribution extends Command<void> {
  constructor(
    readonly id: string,
    readonly kind: ContributionKind | undefined,
    readonly change: ContributionChange,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(ChangeContribution)
export class ChangeContributionHandler implements ICommandHandler<ChangeContribution> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly live: FeedLive,
  ) {}

  async execute({ id, kind, change, meta }: ChangeContribution) {
    const found = await this.kindOf(id, kind);
    const stream = found === 'comment' ? commentStream(id) : replyStream(id);
    const before = await contributionNow(this.core, id, found);
    const { events, position } = await executeDecider(this.core, stream, contribution, change, meta);
    await readYourWrite(this.core, position);
    if (events.length === 0) return;
    const ids = { id, postId: before.postId, commentId: before.commentId };
    const types = new Set(events.map((e) => e.type));
    // Gone from what others see: deleted while shown, or taken down now.
    const removedNow = types.has('CommentRemoved') || types.has('ReplyRemoved');
    if (((types.has('CommentDeleted') || types.has('ReplyDeleted')) && before.status === 'visible') || removedNow)
      await this.live.gone(found, ids, removedNow, meta.commandId);
    if (types.has('CommentRestored') || types.has('ReplyRestored')) await this.live.added(id, meta.commandId);
  }

  private async kindOf(id: string, kind: ContributionKind | undefined): Promise<ContributionKind> {
    if (isUuid(id)) {
      for (const candidate of kind ? [kind] : (['comment', 'reply'] as const)) {
        if ((await contributionNow(this.core, id, candidate)).authorId !== undefined) return candidate;
      }
    }
    throw new DomainError(
      CONTRIBUTION_NOT_FOUND,
      kind === 'reply' ? FEED_ERRORS.replyNotFound : FEED_ERRORS.commentNotFound,
      { kind: 'not-found' },
    );
  }
}
