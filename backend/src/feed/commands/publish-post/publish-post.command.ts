import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { v5 as uuidv5 } from 'uuid';
import { type CommandMetadata, executeDecider } from '../../../platform/cqrs/execute-decider.js';
import { EVENT_CORE, type EventCore } from '../../../platform/event-core/event-core.js';
import { postStream } from '../../domain/feed.events.js';
import { FeedImages } from '../../images/feed-images.js';
import { post } from '../../domain/post.decider.js';
import { postNow, readYourWrite } from '../feed-streams.js';

// The post's id comes from the command's: a retried request (same Idempotency-Key) publishes nothing twice.
const POST_ID_NAMESPACE = '0b6f4a2e-8d1c-4f3a-b7e5-9c2d1a0f6e84';

export class PublishPost extends Command<{ postId: string }> {
  constructor(
    readonly authorId: string,
    readonly text: string,
    readonly imageId: string | undefined,
    readonly meta: CommandMetadata,
  ) {
    super();
  }
}

@CommandHandler(PublishPost)
export class PublishPostHandler implements ICommandHandler<PublishPost> {
  constructor(
    @Inject(EVENT_CORE) private readonly core: EventCore,
    private readonly images: FeedImages,
  ) {}

  async execute({ authorId, text, imageId, meta }: PublishPost) {
    const postId = uuidv5(meta.commandId, POST_ID_NAMESPACE);
    // A retried request (same Idempotency-Key) answers the post it made; whatever it names now changes nothing.
    if ((await postNow(this.core, postId)).authorId !== undefined) return { postId };
    if (imageId) await this.images.claim(imageId, authorId, postId);
    try {
      const { position } = await executeDecider(
        this.core,
        postStream(postId),
        post,
        { type: 'PublishPost', postId, authorId, text, ...(imageId ? { imageId } : {}) },
        meta,
      );
      await readYourWrite(this.core, position);
    } catch (error) {
      if (imageId) await this.images.release(imageId, postId);
      throw error;
    }
    return { postId };
  }
}
