import type { FeedChangeData, FeedIntegrationEvent } from '@serendip/proto';
import type { RecordedEvent } from '../../platform/event-store/event-store.js';
import type { FeedEvent } from '../domain/feed.events.js';

/** Ids only (proto events/feed.ts): every feed event, so live delivery and notifications follow each change. */
export function feedIntegrationEvents(recorded: RecordedEvent): FeedIntegrationEvent[] {
  const event = recorded as unknown as FeedEvent;
  const data = changeData(event);
  return [{ id: recorded.id, context: 'feed', occurredAt: recorded.metadata.occurredAt, type: event.type, data }];
}

function changeData(event: FeedEvent): FeedChangeData {
  switch (event.type) {
    case 'PostPublished':
    case 'PostDeleted':
      return { postId: event.data.postId, authorId: event.data.authorId };
    case 'PostLiked':
    case 'PostUnliked':
      return { postId: event.data.postId, authorId: event.data.postAuthorId, userId: event.data.userId };
    case 'CommentAdded': {
      const { commentId, postId, authorId, postAuthorId } = event.data;
      return { postId, authorId, id: commentId, commentId, answersAuthorId: postAuthorId };
    }
    case 'ReplyAdded': {
      const { replyId, commentId, postId, authorId, commentAuthorId } = event.data;
      return { postId, authorId, id: replyId, commentId, answersAuthorId: commentAuthorId };
    }
    case 'CommentRemoved':
    case 'ReplyRemoved':
    case 'CommentDeleted':
    case 'ReplyDeleted':
    case 'CommentRestored':
    case 'ReplyRestored':
    case 'RemovalAppealed': {
      const { id, postId, commentId, authorId } = event.data;
      return { id, postId, commentId, authorId, ...('by' in event.data ? { by: event.data.by } : {}) };
    }
    case 'RemovalAppealDecided': {
      const { id, postId, commentId, authorId, outcome } = event.data;
      return { id, postId, commentId, authorId, outcome };
    }
  }
}
