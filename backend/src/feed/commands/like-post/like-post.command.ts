import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { LikesView } from '@serendip/proto';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { likeStream } from '../../domain/feed.events.js';
import { like } from '../../domain/like.decider.js';
import { postNotFound } from '../../domain/post.decider.js';
import { FeedLive } from '../../integration/feed-live.js';
import { PostReads } from '../../queries/posts/post-reads.js';
import { postNow, readYourWrite } from '../feed-streams.js';

/** Like (`liked` true) or unlike a post; a second like or unlike changes nothing and answers the same. */
export class LikePost extends Command<LikesView> {
  constructor(
    readonly postId: string,
    readonly userId: string,
    readonly liked: boolean,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(LikePost)
export class LikePostHandler implements ICommandHandler<LikePost> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly reads: PostReads,
    private readonly live: FeedLive,
  ) {}

  async execute({ postId, userId, liked, meta }: LikePost): Promise<LikesView> {
    const state = await postNow(this.core, postId);
    // A banned author's post is hidden: liked no more than it is read.
    if (state.authorId === undefined || state.deleted || (await this.reads.isHidden(state.authorId)))
      throw postNotFound();
    const { events, position } = await executeDecider(
      this.core,
      likeStream(postId, userId),
      like,
      { type: liked ? 'LikePost' : 'UnlikePost', postId, userId, postAuthorId: state.authorId },
      meta,
    );
    await readYourWrite(this.core, position);
    if (events.length) await this.live.likesChanged(postId, userId, liked, meta.commandId);
    const likes = await this.reads.likes(postId);
    if (!likes) throw postNotFound();
    return { postId, ...likes, likedByMe: liked };
  }
}
