import { Inject, Injectable } from '@nestjs/common';
import {
  type CommentView,
  FEED_PAGE_SIZE,
  FEED_PATHS,
  type FeedAuthor,
  type FeedPage,
  LIKES_LISTED,
  type PostDetail,
  type PostView,
  type Removal,
  type ReplyView,
} from '@serendip/proto';
import { sql } from 'kysely';
import { type PublicAuthor, UserDirectory } from '../../../identity/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import type { FeedContributionsTable } from '../../../platform/database/schema.js';
import { isUuid } from '../../../platform/shared/ids.js';
import { decodeCursor, encodeCursor } from './cursor.js';

/** Who is looking: their own removed words, and staff all removed ones, are shown to them (flagged). */
export interface Viewer {
  userId: string;
  staff: boolean;
}

/** `hidden`: its author, or the author of the post (or comment) it is under, is banned now. */
export type Contribution = { postId: string; commentId: string; hidden: boolean } & (
  { kind: 'comment'; view: CommentView } | { kind: 'reply'; view: ReplyView }
);

/** The most comments a post's page lists (its newest are last; older ones beyond this are left out). */
export const COMMENTS_LISTED = 500;

type ContributionRow = Pick<
  FeedContributionsTable,
  'id' | 'kind' | 'post_id' | 'comment_id' | 'author_id' | 'text' | 'removed_by' | 'removed_categories'
> & { created_at: Date; removed_at: Date | null; appeal_status: Removal['appeal'] };

/** Matches no one's likes (a viewer id that is not one). */
const NOBODY = '00000000-0000-0000-0000-000000000000';

const UNKNOWN_AUTHOR: PublicAuthor = { firstName: '', avatar: null, isAdmin: false };

/**
 * The feed's reads (spec 3 Post/Comment/Reply): pages of posts newest first by the order the log gave them (a keyset
 * on `seq`, never OFFSET: page 5,000 costs what page 1 does), one post with its comments and replies, and the views a
 * live push carries. A banned author's things are left out while the ban is on.
 */
@Injectable()
export class PostReads {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly users: UserDirectory,
  ) {}

  /** The feed (every author) or one author's posts; `cursor` from the page before. */
  async page(viewer: Viewer, cursor: string | undefined, authorId?: string): Promise<FeedPage> {
    const before = decodeCursor(cursor);
    let query = this.posts(viewer.userId)
      .where(notHidden('p.author_id'))
      .orderBy('p.seq', 'desc')
      .limit(FEED_PAGE_SIZE + 1);
    if (before !== undefined) query = query.where('p.seq', '<', before);
    if (authorId !== undefined) query = query.where('p.author_id', '=', authorId);
    const rows = await query.execute();
    const items = rows.slice(0, FEED_PAGE_SIZE);
    const authors = await this.users.publicAuthors(items.map((r) => r.author_id));
    const next = rows.length > FEED_PAGE_SIZE ? encodeCursor(items[items.length - 1]!.seq) : undefined;
    return { items: items.map((row) => toPostView(row, authors)), ...(next ? { next } : {}) };
  }

  /** One post with its comments and replies, oldest first; undefined when it is gone (or its author is banned). */
  async detail(viewer: Viewer, postId: string): Promise<PostDetail | undefined> {
    if (!isUuid(postId)) return undefined;
    const row = await this.posts(viewer.userId)
      .where('p.post_id', '=', postId)
      .where(notHidden('p.author_id'))
      .executeTakeFirst();
    if (!row) return undefined;
    const contributions = await this.db
      .selectFrom('feed_contributions as c')
      .selectAll()
      .where('c.post_id', '=', postId)
      .where(notHidden('c.author_id'))
      .where((eb) =>
        viewer.staff ? eb.lit(true) : eb.or([eb('c.removed_by', 'is', null), eb('c.author_id', '=', viewer.userId)]),
      )
      .orderBy('c.created_at')
      .orderBy('c.id')
      .limit(COMMENTS_LISTED * 4)
      .execute();
    const authors = await this.users.publicAuthors([row.author_id, ...contributions.map((c) => c.author_id)]);
    const comments = new Map<string, CommentView>();
    for (const c of contributions) if (c.kind === 'comment') comments.set(c.id, toCommentView(c, authors));
    for (const c of contributions)
      if (c.kind === 'reply') comments.get(c.comment_id)?.replies.push(toReplyView(c, authors));
    return { ...toPostView(row, authors), comments: [...comments.values()].slice(-COMMENTS_LISTED) };
  }

  /** A comment or reply as a push or an answer shows it (with `removed` when it was taken down). */
  async contribution(id: string): Promise<Contribution | undefined> {
    const row = await this.db.selectFrom('feed_contributions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    const authors = await this.users.publicAuthors([row.author_id]);
    const hidden = await this.db
      .selectFrom('feed_hidden_authors')
      .select('user_id')
      .where('user_id', 'in', (eb) =>
        eb
          .selectFrom('feed_posts')
          .select('author_id')
          .where('post_id', '=', row.post_id)
          .union(eb.selectFrom('feed_contributions').select('author_id').where('id', 'in', [row.id, row.comment_id])),
      )
      .executeTakeFirst();
    const where = { postId: row.post_id, commentId: row.comment_id, hidden: hidden !== undefined };
    return row.kind === 'comment'
      ? { kind: 'comment', ...where, view: toCommentView(row, authors) }
      : { kind: 'reply', ...where, view: toReplyView(row, authors) };
  }

  /** A post's likes now: the latest LIKES_LISTED likers and how many in all (undefined when the post is gone). */
  async likes(postId: string): Promise<{ likes: string[]; likeCount: number } | undefined> {
    const row = await this.db
      .selectFrom('feed_posts as p')
      .select(['p.like_count', recentLikers()])
      .where('p.post_id', '=', postId)
      .executeTakeFirst();
    return row && { likes: row.likes, likeCount: row.like_count };
  }

  /** Whether someone's things are hidden now (a ban is on): nobody reads, likes or answers them meanwhile. */
  async isHidden(authorId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('feed_hidden_authors')
      .select('user_id')
      .where('user_id', '=', authorId)
      .executeTakeFirst();
    return row !== undefined;
  }

  private posts(viewerId: string) {
    return this.db.selectFrom('feed_posts as p').select([
      'p.post_id',
      'p.seq',
      'p.author_id',
      'p.text',
      'p.created_at',
      'p.like_count',
      'p.comment_count',
      'p.image_id',
      recentLikers(),
      // One key lookup per post of the page: as an EXISTS, Postgres would read all the viewer's likes for every page.
      sql<boolean>`coalesce((select true from feed_likes mine where mine.post_id = p.post_id
        and mine.user_id = ${isUuid(viewerId) ? viewerId : NOBODY} limit 1), false)`.as('liked_by_me'),
    ]);
  }
}

/** The latest likers of the post `p`, newest first. */
const recentLikers = () =>
  sql<string[]>`array(select l.user_id::text from feed_likes l where l.post_id = p.post_id
    order by l.liked_at desc limit ${sql.lit(LIKES_LISTED)})`.as('likes');

/** Not by someone whose ban is on now. */
const notHidden = (column: 'p.author_id' | 'c.author_id') =>
  sql<boolean>`not exists (select 1 from feed_hidden_authors h where h.user_id = ${sql.ref(column)})`;

const authorView = (id: string, authors: Map<string, PublicAuthor>): FeedAuthor => ({
  _id: id,
  ...(authors.get(id) ?? UNKNOWN_AUTHOR),
});

function toPostView(
  row: {
    post_id: string;
    author_id: string;
    text: string;
    created_at: Date;
    like_count: number;
    comment_count: number;
    image_id: string | null;
    likes: string[];
    liked_by_me: boolean;
  },
  authors: Map<string, PublicAuthor>,
): PostView {
  return {
    _id: row.post_id,
    author: authorView(row.author_id, authors),
    text: row.text,
    ...(row.image_id ? { image: FEED_PATHS.image(row.image_id) } : {}),
    createdAt: new Date(row.created_at).toISOString(),
    likes: row.likes,
    likeCount: row.like_count,
    likedByMe: row.liked_by_me,
    commentCount: row.comment_count,
  };
}

/** A removed comment's or reply's `removed` (spread into its view), or nothing for a shown one. */
export function removalOf(
  row: Pick<ContributionRow, 'removed_by' | 'removed_categories' | 'removed_at' | 'created_at'> & {
    appeal_status: Removal['appeal'];
  },
): { removed?: Removal } {
  if (row.removed_by === null) return {};
  return {
    removed: {
      by: row.removed_by === 'filter' ? 'filter' : 'admin',
      categories: row.removed_categories ?? [],
      at: new Date(row.removed_at ?? row.created_at).toISOString(),
      appeal: row.appeal_status,
    },
  };
}

function toCommentView(row: ContributionRow, authors: Map<string, PublicAuthor>): CommentView {
  return {
    _id: row.id,
    postId: row.post_id,
    author: authorView(row.author_id, authors),
    text: row.text,
    createdAt: new Date(row.created_at).toISOString(),
    replies: [],
    ...removalOf(row),
  };
}

function toReplyView(row: ContributionRow, authors: Map<string, PublicAuthor>): ReplyView {
  return {
    _id: row.id,
    commentId: row.comment_id,
    postId: row.post_id,
    author: authorView(row.author_id, authors),
    text: row.text,
    createdAt: new Date(row.created_at).toISOString(),
    ...removalOf(row),
  };
}
