import { type DashUserRow, NOTIFICATION_PATHS, API_PREFIX } from '@serendip/proto';
import { Megaphone, Search, UserRound, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { logError } from '../../../shared/log';
import { post } from '../../../shared/http/http-client';
import { errorsFromFailure } from '../../../shared/forms/form-errors';
import { FormAlert } from '../../../shared/forms/FormAlert';
import { notify } from '../../../shared/toasts/notify';
import { useDocumentTitle } from '../../../shared/use-document-title';
import { Button } from '../../../ui/Button';
import { Input } from '../../../ui/Input';
import { Switch } from '../../../ui/Switch';
import { Textarea } from '../../../ui/Textarea';
import { dashUsersApi } from '../users/dash-users-api';
import {
  type AnnouncementDraft,
  type AnnouncementField,
  type Audience,
  checkAnnouncement,
  EMPTY_DRAFT,
} from './announcement-form';
import './announcements.css';

const SEARCH_DEBOUNCE_MS = 250;
const FIELD_RULES = {
  title: { label: 'Title' },
  description: { label: 'Description' },
  adminAnnouncement: { label: 'Admin announcement' },
  userId: { label: 'Recipient' },
} as const;

const nameOf = (user: DashUserRow) =>
  [user.firstName, user.lastName].filter(Boolean).join(' ') || user.username || 'Unnamed user';

/**
 * Admins send an announcement (spec 3 "Notification"): title, description, their own words optionally, to everyone
 * or to one user, and forced open (the overlay, spec 2) or in the bell only.
 */
export function AnnouncementsPage() {
  useDocumentTitle('Announcements');
  const [draft, setDraft] = useState<AnnouncementDraft>(EMPTY_DRAFT);
  const [recipient, setRecipient] = useState<DashUserRow | null>(null);
  const [errors, setErrors] = useState<Partial<Record<AnnouncementField, string>>>({});
  const [formError, setFormError] = useState<string[]>([]);
  const [sending, setSending] = useState(false);
  const ids = { audience: useId() };

  const edit = (change: Partial<AnnouncementDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(change)) delete next[key as AnnouncementField];
      return next;
    });
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    const checked = checkAnnouncement(draft);
    setFormError([]);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    setSending(true);
    try {
      await post<unknown>(NOTIFICATION_PATHS.announce.slice(API_PREFIX.length + 1), checked.request);
      notify.success(
        recipient && draft.audience === 'one-user'
          ? `Announcement sent to ${nameOf(recipient)}.`
          : 'Announcement sent to everyone.',
      );
      setDraft(EMPTY_DRAFT);
      setRecipient(null);
      setErrors({});
    } catch (error) {
      const described = errorsFromFailure(error, FIELD_RULES, 'The announcement could not be sent. Please try again.');
      const fields: Partial<Record<AnnouncementField, string>> = {};
      for (const [field, messages] of Object.entries(described.fields) as [AnnouncementField, string[]][]) {
        if (messages[0]) fields[field] = messages[0];
      }
      setErrors(fields);
      setFormError(described.form);
    } finally {
      setSending(false);
    }
  };

  const everyone = draft.audience === 'everyone';
  return (
    <section className="dash-page announcements" aria-labelledby="announcements-title">
      <div className="dash-page__head">
        <h1 id="announcements-title">Announcements</h1>
      </div>
      <form className="dash-card announcement-form" onSubmit={send} noValidate>
        <Input
          label="Title"
          value={draft.title}
          maxLength={200}
          onChange={(e) => edit({ title: e.target.value })}
          error={errors.title}
        />
        <Textarea
          label="Description"
          value={draft.description}
          rows={3}
          onChange={(e) => edit({ description: e.target.value })}
          error={errors.description}
        />
        <Textarea
          label="Admin announcement (optional)"
          hint="Your own words, shown apart from the description."
          value={draft.adminAnnouncement}
          rows={3}
          onChange={(e) => edit({ adminAnnouncement: e.target.value })}
          error={errors.adminAnnouncement}
        />
        <fieldset className="announcement-form__audience" aria-describedby={`${ids.audience}-hint`}>
          <legend>Send to</legend>
          {(['everyone', 'one-user'] as Audience[]).map((audience) => (
            <label key={audience} className="announcement-form__choice">
              <input
                type="radio"
                name="audience"
                value={audience}
                checked={draft.audience === audience}
                onChange={() => edit({ audience, userId: audience === 'everyone' ? null : (recipient?._id ?? null) })}
              />
              {audience === 'everyone' ? 'Everyone' : 'One user'}
            </label>
          ))}
          <p id={`${ids.audience}-hint`} className="announcement-form__hint">
            {everyone ? 'Everyone with an account now.' : 'Pick them by name, username or e-mail.'}
          </p>
        </fieldset>
        {!everyone && (
          <RecipientPicker
            recipient={recipient}
            error={errors.userId}
            onPick={(user) => {
              setRecipient(user);
              edit({ userId: user?._id ?? null });
            }}
          />
        )}
        <Switch
          label="Force open"
          description="Covers the app with the announcement until each person presses OK."
          checked={draft.forceOpen}
          onCheckedChange={(forceOpen) => edit({ forceOpen })}
        />
        <FormAlert messages={formError} />
        <div className="announcement-form__actions">
          <Button type="submit" disabled={sending} aria-busy={sending}>
            <Megaphone size={16} aria-hidden="true" /> {sending ? 'Sending…' : 'Send'}
          </Button>
        </div>
      </form>
    </section>
  );
}

/** One user, found with the dashboard's user search (GET /api/dash/users, by name or username). */
function RecipientPicker({
  recipient,
  error,
  onPick,
}: {
  recipient: DashUserRow | null;
  error: string | undefined;
  onPick: (user: DashUserRow | null) => void;
}) {
  const [search, setSearch] = useState('');
  // Kept with the words it answers, so a cleared or changed search never shows an older answer.
  const [answer, setAnswer] = useState<{ query: string; users: DashUserRow[] } | null>(null);
  const query = search.trim();
  const found = query && answer?.query === query ? answer.users : null;
  const listId = useId();

  useEffect(() => {
    if (!query) return;
    const controller = new AbortController();
    const timer = window.setTimeout(() => {
      dashUsersApi
        .list(query, 1, controller.signal)
        .then((list) => setAnswer({ query, users: list.items.filter((u) => u.status === 'active').slice(0, 8) }))
        .catch((failure: unknown) => {
          if (!controller.signal.aborted) logError('The user search failed', failure);
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
  }, [query]);

  if (recipient) {
    return (
      <div className="recipient">
        <UserRound size={18} aria-hidden="true" />
        <span className="recipient__name">
          To <strong>{nameOf(recipient)}</strong>
          {recipient.username && <span className="recipient__username"> @{recipient.username}</span>}
        </span>
        <Button type="button" variant="ghost" size="sm" onClick={() => onPick(null)}>
          <X size={16} aria-hidden="true" /> Change
        </Button>
      </div>
    );
  }
  return (
    <div className="recipient-picker">
      <Input
        label="Recipient"
        type="search"
        placeholder="Name, username or e-mail"
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        error={error}
        startIcon={<Search size={16} />}
        aria-controls={listId}
      />
      {found && (
        <ul id={listId} className="recipient-picker__list" aria-label="Users found">
          {found.length === 0 ? (
            <li className="recipient-picker__none">No user found.</li>
          ) : (
            found.map((user) => (
              <li key={user._id}>
                <button type="button" className="recipient-picker__user" onClick={() => onPick(user)}>
                  <span>{nameOf(user)}</span>
                  {user.username && <span className="recipient__username">@{user.username}</span>}
                </button>
              </li>
            ))
          )}
        </ul>
      )}
    </div>
  );
}
