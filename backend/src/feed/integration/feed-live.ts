import { Injectable, Logger } from '@nestjs/common';
import { MEMBERS_ROLE, Realtime } from '../../platform/realtime/realtime.js';
import { PostReads } from '../queries/posts/post-reads.js';

/**
 * The feed's live pushes (spec 4 "Live content merging", 5, 7), sent once the read model has the change (the page's
 * next load reads the same rows), each with an id made of the command's so a retry repeats it and clients drop it. A
 * push that fails is logged: the page has it on its next load. They go to the pages of people who may read the feed
 * (MEMBERS_ROLE: signed in, no ban on). Comments go to admins as `newComment` and to everyone else as
 * `CommentReplyBadWord` (spec 5: each side takes only its own); a removed one, or one by someone banned (or under a
 * banned author's post), reaches admins only.
 */
@Injectable()
export class FeedLive {
  private readonly logger = new Logger(FeedLive.name);

  constructor(
    private readonly realtime: Realtime,
    private readonly reads: PostReads,
  ) {}

  async postDeleted(postId: string, commandId: string) {
    await this.safely(() =>
      this.realtime.toRole(MEMBERS_ROLE, 'postDeleted', { postId }, `post-deleted-${postId}-${commandId}`),
    );
  }

  async likesChanged(postId: string, userId: string, liked: boolean, commandId: string) {
    await this.safely(async () => {
      const likes = await this.reads.likes(postId);
      if (!likes) return;
      await this.realtime.toRole(
        MEMBERS_ROLE,
        liked ? 'postLiked' : 'postUnliked',
        { postId, userId, ...likes },
        `likes-${postId}-${commandId}`,
      );
    });
  }

  /**
   * A comment or reply written (or shown again after an appeal). `removed`: the filter took it down as it was written,
   * which the read model may not show yet if it lags.
   */
  async added(id: string, commandId: string, removed = false) {
    await this.safely(async () => {
      const found = await this.reads.contribution(id);
      if (!found) return;
      const pushId = `added-${id}-${commandId}`;
      const toMembers = !removed && !found.view.removed && !found.hidden;
      if (found.kind === 'comment') {
        const { postId, view: comment } = found;
        // Its own id: an admin's page also gets the members' copy, and drops an id it has seen (spec 5 keeps only this).
        await this.realtime.toRole('admin', 'newComment', { postId, comment }, `${pushId}-staff`);
        if (toMembers) await this.realtime.toRole(MEMBERS_ROLE, 'CommentReplyBadWord', { postId, comment }, pushId);
        return;
      }
      const { commentId, view: reply } = found;
      await this.realtime.toRole('admin', 'newReply', { commentId, reply }, `${pushId}-staff`);
      if (toMembers) await this.realtime.toRole(MEMBERS_ROLE, 'newReply', { commentId, reply }, pushId);
    });
  }

  /**
   * Deleted, or taken down by staff afterwards (`removed`): gone from every page; its author's and staff's pages keep
   * a removed one, marked removed.
   */
  async gone(
    kind: 'comment' | 'reply',
    ids: { id: string; postId: string; commentId: string },
    removed: boolean,
    commandId: string,
  ) {
    const pushId = `gone-${ids.id}-${commandId}`;
    const flag = removed ? { removed: true as const } : {};
    await this.safely(() =>
      kind === 'comment'
        ? this.realtime.toRole(
            MEMBERS_ROLE,
            'commentDeleted',
            { postId: ids.postId, commentId: ids.id, ...flag },
            pushId,
          )
        : this.realtime.toRole(
            MEMBERS_ROLE,
            'replyDeleted',
            { postId: ids.postId, commentId: ids.commentId, replyId: ids.id, ...flag },
            pushId,
          ),
    );
  }

  private async safely(push: () => Promise<unknown>) {
    try {
      await push();
    } catch (error) {
      this.logger.warn(`a feed push was not sent (${(error as Error).message})`);
    }
  }
}
