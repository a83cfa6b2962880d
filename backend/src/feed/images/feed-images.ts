import { sql } from 'kysely';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DomainError, invalidField } from '../../platform/cqrs/decider.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { isUuid } from '../../platform/shared/ids.js';
import { readFeedImage, removeFeedImage } from './feed-image-files.js';

/** A picture uploaded and not posted within this long is deleted: it may show a person. */
export const UNPOSTED_IMAGE_TTL_MS = 60 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;

/**
 * Posts' pictures on disk and in `feed_images`: which upload a post may take (its author's own, not yet posted), who
 * may see one (anyone signed in once its post is shown; its uploader before), and their end (with the post, with the
 * account, or an hour after an upload nobody posted).
 */
@Injectable()
export class FeedImages implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(FeedImages.name);
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(DATABASE) private readonly db: Db,
  ) {}

  onApplicationBootstrap() {
    this.timer = setInterval(() => {
      this.purge(new Date()).catch((error: Error) =>
        this.logger.error(`purging feed pictures failed: ${error.message}`),
      );
    }, PURGE_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown() {
    clearInterval(this.timer);
  }

  /**
   * Takes an upload for a new post, in one guarded write: its author's own, not taken by another post (two posts
   * naming one picture at once: one gets it, the other a 400).
   */
  async claim(imageId: string, authorId: string, postId: string): Promise<void> {
    const taken = isUuid(imageId)
      ? await this.db
          .updateTable('feed_images')
          .set({ post_id: postId })
          .where('image_id', '=', imageId)
          .where('uploader_id', '=', authorId)
          .where((eb) => eb.or([eb('post_id', 'is', null), eb('post_id', '=', postId)]))
          .executeTakeFirst()
      : undefined;
    if (!taken || Number(taken.numUpdatedRows) === 0) {
      throw invalidField('imageId', 'no such picture of yours; upload it again', 'no-such-image');
    }
  }

  /** The post was not published after all: the upload waits to be posted again (or purged). */
  async release(imageId: string, postId: string): Promise<void> {
    await this.db
      .updateTable('feed_images')
      .set({ post_id: null })
      .where('image_id', '=', imageId)
      .where('post_id', '=', postId)
      .execute();
  }

  /**
   * Keeps a place for one more unposted upload of this person, or says there is none (UNPOSTED_IMAGES_MAX): counted
   * and taken under a lock of theirs, so uploads sent at once cannot all pass the count.
   */
  async reserve(imageId: string, uploaderId: string, file: string, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(hashtextextended(${`feed-images:${uploaderId}`}, 0))`.execute(trx);
      const waiting = await trx
        .selectFrom('feed_images')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('uploader_id', '=', uploaderId)
        .where('post_id', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(waiting.n) >= max) return false;
      await trx
        .insertInto('feed_images')
        .values({ image_id: imageId, uploader_id: uploaderId, file, bytes: 0, post_id: null })
        .execute();
      return true;
    });
  }

  /** The reserved upload's picture is written: its size is known. */
  async stored(imageId: string, bytes: number): Promise<void> {
    await this.db.updateTable('feed_images').set({ bytes }).where('image_id', '=', imageId).execute();
  }

  /** A reserved upload whose picture was refused. */
  async drop(imageId: string): Promise<void> {
    const gone = await this.db.deleteFrom('feed_images').where('image_id', '=', imageId).returning('file').execute();
    for (const { file } of gone) await removeFeedImage(this.config.dataDir, file);
  }

  /** The picture's bytes, if `viewerId` may see it: its uploader, or anyone while a shown post has it. */
  async read(imageId: string, viewerId: string): Promise<Buffer> {
    const row = isUuid(imageId)
      ? await this.db
          .selectFrom('feed_images as i')
          .leftJoin('feed_posts as p', 'p.post_id', 'i.post_id')
          .select(['i.file', 'i.uploader_id', 'p.post_id', 'p.author_id'])
          .where('i.image_id', '=', imageId)
          .executeTakeFirst()
      : undefined;
    const hidden =
      row?.author_id &&
      (await this.db
        .selectFrom('feed_hidden_authors')
        .select('user_id')
        .where('user_id', '=', row.author_id)
        .executeTakeFirst());
    const visible = row && (row.uploader_id === viewerId || (row.post_id !== null && !hidden));
    const noSuchImage = () => new DomainError('no-such-image', 'No such picture', { kind: 'not-found' });
    if (!row || !visible) throw noSuchImage();
    // A reserved upload whose picture is still being written, or one deleted a moment ago.
    return readFeedImage(this.config.dataDir, row.file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') throw noSuchImage();
      throw error;
    });
  }

  /** A deleted post's picture goes with it. */
  async removeOfPost(postId: string): Promise<void> {
    const gone = await this.db.deleteFrom('feed_images').where('post_id', '=', postId).returning('file').execute();
    for (const { file } of gone) await removeFeedImage(this.config.dataDir, file);
  }

  /** A deleted account's uploads that no post shows (the posted ones go with their posts). */
  async removeUnpostedOf(userId: string): Promise<void> {
    const gone = await this.db
      .deleteFrom('feed_images')
      .where('uploader_id', '=', userId)
      .where('post_id', 'is', null)
      .returning('file')
      .execute();
    for (const { file } of gone) await removeFeedImage(this.config.dataDir, file);
  }

  async purge(now: Date): Promise<number> {
    const stale = await this.db
      .deleteFrom('feed_images')
      .where('post_id', 'is', null)
      .where('uploaded_at', '<', new Date(now.getTime() - UNPOSTED_IMAGE_TTL_MS))
      .returning('file')
      .execute();
    for (const { file } of stale) await removeFeedImage(this.config.dataDir, file);
    return stale.length;
  }
}
