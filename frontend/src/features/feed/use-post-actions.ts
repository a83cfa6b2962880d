import type { LikesView, PostView } from '@serendip/proto';
import { isHttpError } from '../../shared/http/http-error';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import type { FeedApi } from './feed-api';
import { failureText, FEED_TEXTS } from './feed-texts';

/** Liking and deleting a post, wherever it is shown; the page applies what the server answered. */
export function postActions(
  api: Pick<FeedApi, 'like' | 'unlike' | 'deletePost'>,
  applied: { likes: (view: LikesView) => void; deleted: (postId: string) => void },
) {
  return {
    async like(post: PostView) {
      try {
        applied.likes(await (post.likedByMe ? api.unlike(post._id) : api.like(post._id)));
      } catch (error) {
        logError('Like failed', error);
        notify.error(
          failureText(error, post.likedByMe ? 'Your like could not be taken back.' : 'The post could not be liked.'),
        );
      }
    },
    async delete(post: PostView) {
      try {
        await api.deletePost(post._id);
        applied.deleted(post._id);
        notify.success(FEED_TEXTS.deletedPost);
      } catch (error) {
        // Deleted meanwhile (another tab): it is gone either way.
        if (isHttpError(error) && error.status === 404) applied.deleted(post._id);
        logError('Post deletion failed', error);
        notify.error(failureText(error, 'The post could not be deleted.'));
      }
    },
  };
}
