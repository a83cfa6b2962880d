import { randomUUID } from 'node:crypto';
import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { FEED_PATHS, type FeedImageUploaded } from '@serendip/proto';
import type { Config } from '../../../config/config.js';
import { CONFIG } from '../../../config/config.token.js';
import { DomainError, invalidField } from '../../../platform/cqrs/decider.js';
import { type Limit, RATE_LIMITS, type RateLimits } from '../../../platform/http/rate-limits.js';
import { type PictureProblem, toPicture } from '../../../platform/images/picture.js';
import { feedImageFileName, writeFeedImage } from '../../images/feed-image-files.js';
import { FeedImages } from '../../images/feed-images.js';

const UPLOADS_PER_HOUR: Limit = { name: 'feed-images-user', points: 30, durationSeconds: 60 * 60 };
/** Pictures uploaded and not yet posted, per person (each is deleted after an hour anyway). */
export const UNPOSTED_IMAGES_MAX = 5;
/** Sharp enough on any screen the feed is read on. */
const MAX_SIDE = 1600;

const PROBLEMS: Record<PictureProblem, string> = {
  'unsupported-type': 'must be a JPEG, PNG or WebP picture',
  'too-many-pixels': 'has too many pixels',
  unreadable: 'could not be read as a picture',
};

export class UploadFeedImage extends Command<FeedImageUploaded> {
  constructor(
    readonly uploaderId: string,
    readonly bytes: Buffer,
  ) {
    super();
  }
}

/**
 * A post's picture, taken as avatars are (the bytes say what it is, never the declared type): re-encoded as a WebP no
 * larger than 1600 px, oriented, stripped of every metadata block (a phone's GPS position among them), kept under
 * DATA_DIR/feed-images until a post shows it or an hour passes.
 */
@CommandHandler(UploadFeedImage)
export class UploadFeedImageHandler implements ICommandHandler<UploadFeedImage> {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(RATE_LIMITS) private readonly limits: RateLimits,
    private readonly images: FeedImages,
  ) {}

  async execute({ uploaderId, bytes }: UploadFeedImage): Promise<FeedImageUploaded> {
    await this.limits.take(UPLOADS_PER_HOUR, uploaderId);
    const imageId = randomUUID();
    const file = feedImageFileName(imageId);
    // The place is taken before the slow decoding: a burst of uploads cannot all pass the count.
    if (!(await this.images.reserve(imageId, uploaderId, file, UNPOSTED_IMAGES_MAX))) {
      throw new DomainError('too-many-images', 'Too many pictures waiting to be posted; post or try again later', {
        kind: 'too-many',
        retryAfterSeconds: 600,
      });
    }
    try {
      const picture = await toPicture(bytes, { maxSide: MAX_SIDE, format: 'webp', quality: 82 });
      if (!picture.ok) throw invalidField('image', PROBLEMS[picture.problem], 'image-invalid');
      await writeFeedImage(this.config.dataDir, file, picture.bytes);
      await this.images.stored(imageId, picture.bytes.length);
    } catch (error) {
      await this.images.drop(imageId);
      throw error;
    }
    return { imageId, url: FEED_PATHS.image(imageId) };
  }
}
