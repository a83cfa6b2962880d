import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { postStream } from '../../domain/feed.events.js';
import { FeedImages } from '../../images/feed-images.js';
import { post } from '../../domain/post.decider.js';
import { FeedLive } from '../../integration/feed-live.js';
import { readYourWrite } from '../feed-streams.js';

/** `by`: the author, or 'system' (their account was deleted). */
export class DeletePost extends Command<void> {
  constructor(
    readonly postId: string,
    readonly by: string,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(DeletePost)
export class DeletePostHandler implements ICommandHandler<DeletePost> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly live: FeedLive,
    private readonly images: FeedImages,
  ) {}

  async execute({ postId, by, meta }: DeletePost) {
    const { position, events } = await executeDecider(
      this.core,
      postStream(postId),
      post,
      { type: 'DeletePost', by },
      meta,
    );
    await readYourWrite(this.core, position);
    // Its picture goes with it (also when the delete is repeated after a crash in between).
    await this.images.removeOfPost(postId);
    if (events.length) await this.live.postDeleted(postId, meta.commandId);
  }
}
