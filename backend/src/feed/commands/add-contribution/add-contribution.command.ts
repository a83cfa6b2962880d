import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { CommentView, ReplyView } from '@serendip/proto';
import { v5 as uuidv5 } from 'uuid';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { contribution, type ContributionKind } from '../../domain/contribution.decider.js';
import { commentStream, replyStream } from '../../domain/feed.events.js';
import { postNotFound } from '../../domain/post.decider.js';
import { violationsIn } from '../../domain/profanity.js';
import { FeedLive } from '../../integration/feed-live.js';
import { PostReads } from '../../queries/posts/post-reads.js';
import { contributionNow, postNow, readYourWrite } from '../feed-streams.js';
import { DomainError } from '../../../platform/cqrs/decider.js';
import { FEED_ERRORS } from '@serendip/proto';

const ID_NAMESPACE = '5e1d9c3a-7b2f-4a6e-8d0c-3f9b2e1a7c45';

/**
 * A comment on a post (`parentId` the post's id) or a reply to a comment (the comment's id). The profanity filter reads
 * it on the way in (spec 2 "Comment Removed"): one that fails is stored and removed in the same append.
 */
export class AddContribution extends Command<CommentView | ReplyView> {
  constructor(
    readonly kind: ContributionKind,
    readonly parentId: string,
    readonly authorId: string,
    readonly text: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(AddContribution)
export class AddContributionHandler implements ICommandHandler<AddContribution> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly reads: PostReads,
    private readonly live: FeedLive,
  ) {}

  async execute({ kind, parentId, authorId, text, meta }: AddContribution) {
    const { postId, commentId, answersAuthorId } = await this.parent(kind, parentId);
    const id = uuidv5(meta.commandId, ID_NAMESPACE);
    const violations = violationsIn(text);
    const { position, events } = await executeDecider(
      this.core,
      kind === 'comment' ? commentStream(id) : replyStream(id),
      contribution,
      {
        type: 'Add',
        kind,
        id,
        postId,
        commentId: kind === 'comment' ? id : commentId,
        authorId,
        answersAuthorId,
        text,
        violations,
      },
      meta,
    );
    await readYourWrite(this.core, position);
    if (events.length) await this.live.added(id, meta.commandId, violations.length > 0);
    const added = await this.reads.contribution(id);
    // Its post went in the meantime.
    if (!added) throw postNotFound();
    return added.view;
  }

  /**
   * What it answers, there now: a post, or a shown comment under a post that is there; by nobody banned now (their
   * things are hidden, answered no more than read).
   */
  private async parent(kind: ContributionKind, parentId: string) {
    if (kind === 'comment') {
      const post = await postNow(this.core, parentId);
      if (post.authorId === undefined || post.deleted || (await this.reads.isHidden(post.authorId)))
        throw postNotFound();
      return { postId: parentId, commentId: '', answersAuthorId: post.authorId };
    }
    const comment = await contributionNow(this.core, parentId, 'comment');
    if (comment.authorId === undefined || comment.status !== 'visible' || (await this.reads.isHidden(comment.authorId)))
      throw new DomainError('comment-not-found', FEED_ERRORS.commentNotFound, { kind: 'not-found' });
    const post = await postNow(this.core, comment.postId);
    if (post.authorId === undefined || post.deleted || (await this.reads.isHidden(post.authorId))) throw postNotFound();
    return { postId: comment.postId, commentId: parentId, answersAuthorId: comment.authorId };
  }
}
