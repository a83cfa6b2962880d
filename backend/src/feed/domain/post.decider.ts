import { FEED_ERRORS } from '@serendip/proto';
import { type Decider, DomainError } from '../../platform/cqrs/decider.js';
import type { PostEvent } from './feed.events.js';

export type PostCommand =
  | { type: 'PublishPost'; postId: string; authorId: string; text: string; imageId?: string }
  /** `by`: the author, or 'system' when their account was deleted. */
  | { type: 'DeletePost'; by: string };

export interface PostState {
  postId: string;
  authorId: string | undefined;
  deleted: boolean;
}

export const POST_NOT_FOUND = 'post-not-found';
export const NOT_YOURS = 'not-yours';

export const postNotFound = () => new DomainError(POST_NOT_FOUND, FEED_ERRORS.postNotFound, { kind: 'not-found' });

/** A post: published once, deleted once, and only by whoever wrote it. */
export const post: Decider<PostCommand, PostState, PostEvent> = {
  initialState: { postId: '', authorId: undefined, deleted: false },
  evolve(state, event) {
    switch (event.type) {
      case 'PostPublished':
        return { ...state, postId: event.data.postId, authorId: event.data.authorId };
      case 'PostDeleted':
        return { ...state, deleted: true };
    }
  },
  decide(command, state) {
    switch (command.type) {
      case 'PublishPost': {
        if (state.authorId !== undefined) return [];
        const { postId, authorId, text, imageId } = command;
        return [{ type: 'PostPublished', data: { postId, authorId, text, ...(imageId ? { imageId } : {}) } }];
      }
      case 'DeletePost': {
        if (state.authorId === undefined || state.deleted) throw postNotFound();
        if (command.by !== state.authorId && command.by !== 'system')
          throw new DomainError(NOT_YOURS, FEED_ERRORS.notYours, { kind: 'forbidden' });
        return [{ type: 'PostDeleted', data: { postId: state.postId, authorId: state.authorId, by: command.by } }];
      }
    }
  },
};
