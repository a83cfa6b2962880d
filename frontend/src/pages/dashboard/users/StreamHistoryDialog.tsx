import type { AuditEvent } from '@serendip/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isHttpError } from '../../../shared/http/http-error';
import { logError } from '../../../shared/log';
import { Badge, Button, Dialog, DialogContent, Spinner } from '../../../ui';
import { dashUsersApi } from './dash-users-api';
import { ActorName, dateTime } from './user-bits';

export const STREAM_HISTORY_TEXTS = {
  open: 'View history',
  description: 'Everything on record here, oldest first, with who acted and why. Opening it is recorded.',
  failed: 'The history could not be loaded.',
  empty: 'Nothing on record here.',
  loadMore: 'Load More',
  thisEntry: 'This entry',
} as const;

/** What a stream holds, in words, by the start of its name (the contexts' stream names, DESIGN.md "Shape"). */
const STREAM_KINDS: [prefix: string, label: string][] = [
  ['identity-user-', 'Account'],
  ['identity-session-', 'Sign-in session'],
  ['moderation-report-', 'Report'],
  ['moderation-', 'Moderation record'],
  ['matching-match-', 'Call'],
  ['matching-preferences-', 'Match preferences'],
  ['admin-staff-', 'Staff looks'],
  ['notification-inbox-', 'Notifications read'],
  ['notification-', 'Notification'],
  ['feed-post-', 'Post'],
  ['feed-comment-', 'Comment'],
  ['feed-reply-', 'Reply'],
  ['feed-like-', 'Like'],
  ['ops-instance-', 'Server process'],
];

export const streamLabel = (stream: string) =>
  STREAM_KINDS.find(([prefix]) => stream.startsWith(prefix))?.[1] ?? 'Record';

type History =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'loaded'; items: AuditEvent[]; nextCursor: string | null; more: 'idle' | 'loading' | 'failed' };

/**
 * An audit-trail entry's whole stream (spec 6 Admin: admins audit complete histories): every event of it, oldest
 * first, from the admins' audit API, each with its time, who acted, the reason and its fields (personal ones opened;
 * 'erased' once their person deleted the account). Admins only: the server refuses anyone else, and the page offers
 * it to admins only. Each opening is recorded on the server as a look at the people the stream is about.
 */
export function StreamHistoryDialog({
  stream,
  eventId,
  onClose,
}: {
  stream: string;
  /** The trail entry it was opened from, marked in the list. */
  eventId: string;
  onClose: () => void;
}) {
  const [history, setHistory] = useState<History>({ state: 'loading' });
  const list = useRef<HTMLOListElement>(null);
  const loaded = history.state === 'loaded';

  // Once the first page is in, the entry it was opened from is brought into view (the list starts at the oldest).
  useEffect(() => {
    if (loaded) list.current?.querySelector('[aria-current="true"]')?.scrollIntoView?.({ block: 'center' });
  }, [loaded]);

  useEffect(() => {
    const controller = new AbortController();
    dashUsersApi.streamHistory(stream, null, controller.signal).then(
      (page) => setHistory({ state: 'loaded', items: page.items, nextCursor: page.nextCursor, more: 'idle' }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        logError('Stream history failed to load', error);
        setHistory({
          state: 'failed',
          message: isHttpError(error) && error.status === 404 ? error.message : STREAM_HISTORY_TEXTS.failed,
        });
      },
    );
    return () => controller.abort();
  }, [stream]);

  const loadMore = useCallback(async () => {
    if (history.state !== 'loaded' || !history.nextCursor) return;
    setHistory({ ...history, more: 'loading' });
    try {
      const page = await dashUsersApi.streamHistory(stream, history.nextCursor);
      setHistory({
        state: 'loaded',
        items: [...history.items, ...page.items],
        nextCursor: page.nextCursor,
        more: 'idle',
      });
    } catch (error) {
      logError('Stream history failed to load more', error);
      setHistory({ ...history, more: 'failed' });
    }
  }, [history, stream]);

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        size="lg"
        title={`History: ${streamLabel(stream)}`}
        description={STREAM_HISTORY_TEXTS.description}
        aria-busy={history.state === 'loading'}
      >
        <p className="dash-history__stream">{stream}</p>
        {history.state === 'loading' && <Spinner label="Loading the history" />}
        {history.state === 'failed' && (
          <p role="alert" className="dash-user__error">
            {history.message}
          </p>
        )}
        {history.state === 'loaded' && (
          <>
            {history.items.length === 0 ? (
              <p className="dash-user__muted">{STREAM_HISTORY_TEXTS.empty}</p>
            ) : (
              <ol ref={list} className="dash-user__list" aria-label="History events">
                {history.items.map((e) => (
                  <HistoryEvent key={e.id} event={e} current={e.id === eventId} />
                ))}
              </ol>
            )}
            {history.more === 'failed' && (
              <p role="alert" className="dash-user__error">
                {STREAM_HISTORY_TEXTS.failed}
              </p>
            )}
            {history.nextCursor && (
              <Button variant="quiet" size="sm" onClick={loadMore} disabled={history.more === 'loading'}>
                {history.more === 'loading' ? 'Loading…' : STREAM_HISTORY_TEXTS.loadMore}
              </Button>
            )}
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}

function HistoryEvent({ event: e, current }: { event: AuditEvent; current: boolean }) {
  const fields = Object.entries(e.data).filter(([, value]) => value !== null && value !== undefined);
  return (
    <li className="dash-user__item" aria-current={current ? 'true' : undefined}>
      <div className="dash-user__item-head">
        <strong>{e.type}</strong>
        {current && <Badge tone="accent">{STREAM_HISTORY_TEXTS.thisEntry}</Badge>}
        <time className="dash-user__muted" dateTime={e.at}>
          {dateTime(e.at)}
        </time>
      </div>
      <span>
        by <ActorName actor={e.actor} />
        {e.reason && <> · reason: {e.reason}</>}
      </span>
      {fields.length > 0 && (
        <dl className="dash-history__fields">
          {fields.map(([field, value]) => (
            <div key={field}>
              <dt>{field}</dt>
              <dd>{shown(value)}</dd>
            </div>
          ))}
        </dl>
      )}
    </li>
  );
}

/** A field's value as text: words as they are, anything nested as compact JSON. */
function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
