import { Inject, Injectable } from '@nestjs/common';
import type { ReportedContentKind } from '@serendip/proto';
import type { Config } from '../../config/config.js';
import { CONFIG } from '../../config/config.token.js';
import { DATABASE, type Db } from '../../platform/database/database.js';
import { readFeedImage } from '../images/feed-image-files.js';
import { isUuid } from '../../platform/shared/ids.js';

/** A post, comment or reply as it stands: who wrote it, under which post, its words, and a post's picture. */
export interface WrittenContent {
  authorId: string;
  postId: string;
  text: string;
  /** The post's picture (WebP bytes), when it has one. */
  picture?: Buffer;
}

/** What other contexts may read of the feed (moderation: the thing a report is about), over its read models. */
@Injectable()
export class FeedContent {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  /** undefined when there is no such thing (never was, or deleted). */
  async find(kind: ReportedContentKind, id: string): Promise<WrittenContent | undefined> {
    if (!isUuid(id)) return undefined;
    if (kind === 'post') {
      const row = await this.db
        .selectFrom('feed_posts as p')
        .leftJoin('feed_images as i', 'i.image_id', 'p.image_id')
        .select(['p.author_id', 'p.post_id', 'p.text', 'i.file'])
        .where('p.post_id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const picture = row.file ? await readFeedImage(this.config.dataDir, row.file).catch(() => undefined) : undefined;
      return { authorId: row.author_id, postId: row.post_id, text: row.text, ...(picture ? { picture } : {}) };
    }
    const row = await this.db
      .selectFrom('feed_contributions')
      .select(['author_id', 'post_id', 'text'])
      .where('id', '=', id)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return row && { authorId: row.author_id, postId: row.post_id, text: row.text };
  }
}
