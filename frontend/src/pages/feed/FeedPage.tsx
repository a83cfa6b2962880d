import { FEED_LIMITS } from '@serendip/proto';
import { useCallback } from 'react';
import { Composer } from '../../features/feed/Composer';
import { feedApi } from '../../features/feed/feed-api';
import { failureText, FEED_TEXTS } from '../../features/feed/feed-texts';
import { PostList } from '../../features/feed/PostList';
import { useViewer } from '../../features/feed/use-feed-live';
import { usePostList } from '../../features/feed/use-post-list';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import '../../features/feed/feed.css';

/** `/feed` (spec 2 "Other screens"): write a post; everyone's posts, newest first, live (spec 1, 4). */
export function FeedPage() {
  useDocumentTitle(FEED_TEXTS.feedTitle);
  const viewer = useViewer();
  const load = useCallback((cursor?: string) => feedApi.feed(cursor), []);
  const posts = usePostList(load);

  const publish = async (text: string, imageId?: string) => {
    try {
      posts.prepend(await feedApi.publish(text, imageId));
      notify.success(FEED_TEXTS.published);
      return true;
    } catch (error) {
      logError('Post failed', error);
      notify.error(failureText(error, 'Your post could not be published.'));
      return false;
    }
  };

  return (
    <section className="feed-page" aria-labelledby="feed-title">
      <header className="feed-page__head">
        <h1 id="feed-title" className="feed-page__title">
          {FEED_TEXTS.feedTitle}
        </h1>
        <p className="feed-page__intro">{FEED_TEXTS.feedIntro}</p>
      </header>
      <div className="feed-card">
        <Composer
          label={FEED_TEXTS.composeLabel}
          placeholder={FEED_TEXTS.composePlaceholder}
          limit={FEED_LIMITS.post}
          submitLabel="Post"
          onSubmit={publish}
          uploadPicture={feedApi.uploadImage}
        />
      </div>
      <PostList posts={posts} viewerId={viewer.userId} empty={FEED_TEXTS.emptyFeed} label="Posts, newest first" />
    </section>
  );
}
