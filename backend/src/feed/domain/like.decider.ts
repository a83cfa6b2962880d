import type { Decider } from '../../platform/cqrs/decider.js';
import type { LikeEvent } from './feed.events.js';

export type LikeCommand = { type: 'LikePost' | 'UnlikePost'; postId: string; userId: string; postAuthorId: string };

/** One person's like of one post: at most one, so a second like (or unlike) changes nothing. */
export const like: Decider<LikeCommand, { liked: boolean }, LikeEvent> = {
  initialState: { liked: false },
  evolve: (_state, event) => ({ liked: event.type === 'PostLiked' }),
  decide(command, state) {
    const { postId, userId, postAuthorId } = command;
    if (command.type === 'LikePost')
      return state.liked ? [] : [{ type: 'PostLiked', data: { postId, userId, postAuthorId } }];
    return state.liked ? [{ type: 'PostUnliked', data: { postId, userId, postAuthorId } }] : [];
  },
};
