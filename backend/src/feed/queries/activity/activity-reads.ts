import { Inject, Injectable } from '@nestjs/common';
import { type ActivityItem, type ActivityPage, FEED_PAGE_SIZE } from '@serendip/proto';
import { UserDirectory } from '../../../identity/public/index.js';
import { CallRecords } from '../../../matching/public/index.js';
import { DATABASE, type Db } from '../../../platform/database/database.js';
import { badCursor, decodeCursor, encodeCursor } from '../posts/cursor.js';
import { removalOf } from '../posts/post-reads.js';

const MAX_TIME_MS = 8_640_000_000_000_000;

/**
 * The activity page: what the user did, newest first: their posts, comments and replies (a removed one with why),
 * their likes, and their calls. Paged by time (the cursor is the last item's, in ms): each source gives its newest
 * page before it, and the merge keeps the newest FEED_PAGE_SIZE.
 */
@Injectable()
export class ActivityReads {
  constructor(
    @Inject(DATABASE) private readonly db: Db,
    private readonly calls: CallRecords,
    private readonly users: UserDirectory,
  ) {}

  async page(userId: string, cursor: string | undefined): Promise<ActivityPage> {
    const ms = decodeCursor(cursor);
    // A time in ms, within the dates JavaScript can hold.
    if (ms !== undefined && Number(ms) > MAX_TIME_MS) throw badCursor();
    const before = ms === undefined ? undefined : new Date(Number(ms));
    const n = FEED_PAGE_SIZE + 1;
    const [posts, contributions, likes, calls] = await Promise.all([
      this.db
        .selectFrom('feed_posts')
        .select(['post_id', 'text', 'created_at'])
        .where('author_id', '=', userId)
        .$if(before !== undefined, (q) => q.where('created_at', '<', before!))
        .orderBy('created_at', 'desc')
        .limit(n)
        .execute(),
      this.db
        .selectFrom('feed_contributions')
        .selectAll()
        .where('author_id', '=', userId)
        .$if(before !== undefined, (q) => q.where('created_at', '<', before!))
        .orderBy('created_at', 'desc')
        .limit(n)
        .execute(),
      this.db
        .selectFrom('feed_likes as l')
        .innerJoin('feed_posts as p', 'p.post_id', 'l.post_id')
        .select(['l.post_id', 'l.liked_at', 'p.text'])
        .where('l.user_id', '=', userId)
        // Not a banned author's post, hidden while the ban is on.
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('feed_hidden_authors as h').select('h.user_id').whereRef('h.user_id', '=', 'p.author_id'),
            ),
          ),
        )
        .$if(before !== undefined, (q) => q.where('l.liked_at', '<', before!))
        .orderBy('l.liked_at', 'desc')
        .limit(n)
        .execute(),
      this.calls.callsBefore(userId, before, n),
    ]);
    const names = await this.users.firstNames(calls.map((c) => c.partnerId));
    const items: ActivityItem[] = [
      ...posts.map((p): ActivityItem => ({ kind: 'post', at: iso(p.created_at), postId: p.post_id, text: p.text })),
      ...contributions.map((c): ActivityItem => {
        const base = {
          at: iso(c.created_at),
          postId: c.post_id,
          commentId: c.comment_id,
          text: c.text,
          ...removalOf(c),
        };
        return c.kind === 'comment' ? { kind: 'comment', ...base } : { kind: 'reply', ...base, replyId: c.id };
      }),
      ...likes.map((l): ActivityItem => ({ kind: 'like', at: iso(l.liked_at), postId: l.post_id, text: l.text })),
      ...calls.map((c): ActivityItem => ({
        kind: 'call',
        at: c.pairedAt.toISOString(),
        matchId: c.matchId,
        partnerFirstName: names.get(c.partnerId) ?? null,
        seconds: c.durationMs === null ? null : Math.round(c.durationMs / 1000),
      })),
    ].sort((a, b) => b.at.localeCompare(a.at));
    const page = items.slice(0, FEED_PAGE_SIZE);
    const next =
      items.length > FEED_PAGE_SIZE ? encodeCursor(String(Date.parse(page[page.length - 1]!.at))) : undefined;
    return { items: page, ...(next ? { next } : {}) };
  }
}

const iso = (at: Date | string) => new Date(at).toISOString();
