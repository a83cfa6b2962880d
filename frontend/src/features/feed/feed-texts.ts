import { FEED_ERRORS } from '@serendip/proto';
import { errorsFromFailure } from '../../shared/forms/form-errors';
import { isHttpError } from '../../shared/http/http-error';

/** What the feed's pages say (spec 2 "Other screens": the feed, profile, single-post, activity and peer pages). */
export const FEED_TEXTS = {
  feedTitle: 'Feed',
  feedIntro: 'Short posts from people on Serendip.',
  composeLabel: 'Write a post',
  composePlaceholder: 'Share something with everyone…',
  emptyFeed: 'No posts yet. Be the first to share something.',
  emptyOwnPosts: 'You have not posted anything yet.',
  loadFailed: 'The posts could not be loaded.',
  postFailed: 'The post could not be loaded.',
  postGone: FEED_ERRORS.postNotFound,
  noComments: 'No comments yet. Start the conversation.',
  commentLabel: 'Write a comment',
  replyLabel: 'Write a reply',
  published: 'Your post is live.',
  deletedPost: 'Post deleted.',
  deletedComment: 'Comment deleted.',
  deletedReply: 'Reply deleted.',
  confirmDeletePost: 'Delete this post?',
  confirmDeletePostText: 'It will be gone for everyone, with its likes and comments. This cannot be undone.',
  confirmDeleteComment: 'Delete this comment?',
  confirmDeleteCommentText: 'It will be gone for everyone, with its replies. This cannot be undone.',
  confirmDeleteReply: 'Delete this reply?',
  confirmDeleteReplyText: 'It will be gone for everyone. This cannot be undone.',
  activityTitle: 'Activity',
  activityIntro: 'What you did on Serendip, newest first.',
  emptyActivity: 'Nothing here yet. Your posts, comments, likes and calls show here.',
  activityFailed: 'Your activity could not be loaded.',
  peerFailed: 'This profile could not be loaded.',
  // The server answers 404 alike for an id that never was and a deleted account, on purpose.
  peerGone: "We couldn't find this person.",
  appealSent: 'Your appeal was sent.',
  appealFailed: 'Failed to submit appeal.',
} as const;

/** A failed call as one sentence for a toast: the server's own words when it gave some, else `fallback`. */
export function failureText(error: unknown, fallback: string): string {
  // A server error's words ('Service Unavailable') tell the user nothing the fallback does not.
  if (isHttpError(error) && error.status >= 500) return fallback;
  const { fields, form } = errorsFromFailure(
    error,
    { text: { label: 'The text' }, explanation: { label: 'The explanation' } },
    fallback,
  );
  return [...form, ...Object.values<string[] | undefined>(fields).flatMap((list) => list ?? [])].join(' ');
}

export const likesText = (count: number) => (count === 1 ? '1 like' : `${count.toLocaleString('en')} likes`);
export const commentsText = (count: number) => (count === 1 ? '1 comment' : `${count.toLocaleString('en')} comments`);
