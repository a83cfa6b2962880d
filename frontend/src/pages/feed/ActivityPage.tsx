import type { ActivityItem, ActivityPage as ActivityAnswer } from '@serendip/proto';
import { Heart, MessageCircle, PenLine, Phone, Reply } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { feedApi } from '../../features/feed/feed-api';
import { FEED_ROUTES } from '../../features/feed/feed-paths';
import { failureText, FEED_TEXTS } from '../../features/feed/feed-texts';
import { notifiedAt, whenNotified } from '../../features/notifications/notification-time';
import { logError } from '../../shared/log';
import { notify } from '../../shared/toasts/notify';
import { useDocumentTitle } from '../../shared/use-document-title';
import { Button } from '../../ui/Button';
import { Spinner } from '../../ui/Spinner';
import '../../features/feed/feed.css';

type State =
  | { status: 'loading' }
  | { status: 'failed' }
  | { status: 'loaded'; items: ActivityItem[]; next?: string; loadingMore: boolean };

/** `/activity` (spec 2 "activity page"): what the user did (posts, comments, replies, likes, calls), newest first. */
export function ActivityPage() {
  useDocumentTitle(FEED_TEXTS.activityTitle);
  const [state, setState] = useState<State>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let live = true;
    feedApi.activity().then(
      (page: ActivityAnswer) =>
        live && setState({ status: 'loaded', items: page.items, next: page.next, loadingMore: false }),
      (error: unknown) => {
        logError('Activity failed to load', error);
        if (live) setState({ status: 'failed' });
      },
    );
    return () => {
      live = false;
    };
  }, [attempt]);

  const loadMore = async () => {
    if (state.status !== 'loaded' || !state.next) return;
    const cursor = state.next;
    setState({ ...state, loadingMore: true });
    try {
      const page = await feedApi.activity(cursor);
      setState((s) =>
        s.status === 'loaded'
          ? { status: 'loaded', items: [...s.items, ...page.items], next: page.next, loadingMore: false }
          : s,
      );
    } catch (error) {
      logError('More activity failed to load', error);
      notify.error(failureText(error, FEED_TEXTS.activityFailed));
      setState((s) => (s.status === 'loaded' ? { ...s, loadingMore: false } : s));
    }
  };

  return (
    <section className="feed-page" aria-labelledby="activity-title" aria-busy={state.status === 'loading'}>
      <header className="feed-page__head">
        <h1 id="activity-title" className="feed-page__title">
          {FEED_TEXTS.activityTitle}
        </h1>
        <p className="feed-page__intro">{FEED_TEXTS.activityIntro}</p>
      </header>
      {state.status === 'loading' && <Spinner className="feed-state" label="Loading your activity" />}
      {state.status === 'failed' && (
        <div className="feed-state" role="alert">
          <p>{FEED_TEXTS.activityFailed}</p>
          <Button
            variant="quiet"
            size="sm"
            onClick={() => {
              setState({ status: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            Try again
          </Button>
        </div>
      )}
      {state.status === 'loaded' && state.items.length === 0 && (
        <p className="feed-state">{FEED_TEXTS.emptyActivity}</p>
      )}
      {state.status === 'loaded' && state.items.length > 0 && (
        <>
          <ul className="feed-activity" aria-label="Your activity, newest first">
            {state.items.map((item) => (
              <li key={keyOf(item)} className="feed-activity__item">
                <ActivityLine item={item} />
              </li>
            ))}
          </ul>
          {state.next && (
            <Button className="feed-more" variant="quiet" busy={state.loadingMore} onClick={() => void loadMore()}>
              {state.loadingMore ? 'Loading…' : 'Load more'}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

function keyOf(item: ActivityItem): string {
  switch (item.kind) {
    case 'post':
    case 'like':
      return `${item.kind}:${item.postId}:${item.at}`;
    case 'comment':
      return `comment:${item.commentId}`;
    case 'reply':
      return `reply:${item.replyId}`;
    case 'call':
      return `call:${item.matchId}`;
    default: {
      const unexpected: never = item;
      throw new Error(`unknown activity ${JSON.stringify(unexpected)}`);
    }
  }
}

function callLength(seconds: number | null): string {
  if (seconds === null) return '';
  const minutes = Math.floor(seconds / 60);
  return minutes > 0 ? ` for ${minutes} min ${seconds % 60} s` : ` for ${seconds} s`;
}

function ActivityLine({ item }: { item: ActivityItem }) {
  let icon: ReactNode;
  let what: ReactNode;
  switch (item.kind) {
    case 'post':
      icon = <PenLine aria-hidden="true" />;
      what = <>You posted</>;
      break;
    case 'comment':
      icon = <MessageCircle aria-hidden="true" />;
      what = <>You commented</>;
      break;
    case 'reply':
      icon = <Reply aria-hidden="true" />;
      what = <>You replied</>;
      break;
    case 'like':
      icon = <Heart aria-hidden="true" />;
      what = <>You liked a post</>;
      break;
    case 'call':
      icon = <Phone aria-hidden="true" />;
      what = (
        <>
          You had a call{item.partnerFirstName ? ` with ${item.partnerFirstName}` : ''}
          {callLength(item.seconds)}
        </>
      );
      break;
    default: {
      const unexpected: never = item;
      throw new Error(`unknown activity ${JSON.stringify(unexpected)}`);
    }
  }
  const removed = (item.kind === 'comment' || item.kind === 'reply') && item.removed;
  return (
    <>
      <span className="feed-activity__icon">{icon}</span>
      <span className="feed-activity__body">
        <span className="feed-activity__what">
          {what}{' '}
          <time dateTime={item.at} title={notifiedAt(item.at)}>
            {whenNotified(item.at)}
          </time>
        </span>
        {item.kind !== 'call' && (
          <Link
            className={removed ? 'feed-activity__text is-removed' : 'feed-activity__text'}
            to={FEED_ROUTES.post(item.postId)}
          >
            {item.text || 'A picture'}
          </Link>
        )}
        {removed && (
          <span className="feed-comment__removed">
            Removed: {removed.categories.join(', ') || 'against the community guidelines'}
          </span>
        )}
      </span>
    </>
  );
}
