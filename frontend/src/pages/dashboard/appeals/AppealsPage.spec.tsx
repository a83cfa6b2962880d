import { AUTH_PATHS, type DashAppeal, type DashAppealsPage, type DashRemovalAppeal, FEED_PATHS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  aUser,
  rememberSessionInThisBrowser,
  reply,
  resetBrowser,
  serveFakeApi,
} from '../../../features/auth/auth-test-support';
import { renderApp } from '../../../test-support/render-app';
import '../../../ui/test-polyfills';

const APPEALS = '/api/dash/appeals';

function anAppeal(overrides: Partial<DashAppeal> = {}): DashAppeal {
  return {
    caseId: 'c0ffee00-1111-4222-8333-444455556666',
    user: { _id: 'bob-id', firstName: 'Bob' },
    reason: 'Asked for money',
    level: 'moderate',
    bannedAt: '2026-05-02T10:00:00.000Z',
    expiresAt: '2026-05-09T10:00:00.000Z',
    bannedBy: { _id: 'mod-id', firstName: 'Grace' },
    appealExplanation: 'That was a joke between friends.',
    appealedAt: '2026-05-02T12:00:00.000Z',
    evidence: [
      {
        _id: 'report-1',
        number: 12,
        type: 'videosession',
        reason: 'scamming',
        severity: 'medium',
        reportedByWho: { _id: 'ada-id', firstName: 'Ada' },
        reportedUser: { _id: 'bob-id', firstName: 'Bob' },
        screenshot: '/api/admin/reports/report-1/screenshot',
        serverSnapshot: '/api/admin/snapshots/snap-1',
        createdAt: '2026-05-02T09:58:00.000Z',
        status: 'actioned',
        caseId: 'c0ffee00-1111-4222-8333-444455556666',
      },
    ],
    canDecide: true,
    ...overrides,
  };
}

const ADMIN = aUser({ role: 'admin', isAdmin: true, twoFactorEnabled: true });
const MODERATOR = aUser({ role: 'moderator', isAdmin: false, twoFactorEnabled: true });

function onAppealsPage(items: DashAppeal[], viewer = ADMIN, removals: DashRemovalAppeal[] = []) {
  const page: DashAppealsPage = { items, page: 1, totalPages: 1, total: items.length };
  const server = serveFakeApi()
    .on('GET', AUTH_PATHS.userInfo, reply(200, viewer))
    .on('GET', APPEALS, reply(200, page))
    .on('GET', FEED_PATHS.removalAppeals, reply(200, removals));
  rememberSessionInThisBrowser();
  const { socket } = renderApp('/dashboard/appeals');
  return Object.assign(server, { socket });
}

describe('Appeals page', () => {
  afterEach(() => {
    resetBrowser();
    vi.restoreAllMocks();
  });

  it('shows each pending appeal with its ban, the explanation and the evidence', async () => {
    onAppealsPage([anAppeal()]);

    const card = await screen.findByRole('article', { name: 'Appeal of Bob' });
    expect(screen.getByRole('heading', { level: 1, name: 'Appeals' })).toBeDefined();
    expect(within(card).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe(
      '/dashboard/user-management/bob-id/view-details',
    );
    expect(within(card).getByText('Asked for money')).toBeDefined();
    expect(within(card).getByText('Moderate')).toBeDefined();
    expect(within(card).getByText('May 9, 2026 at 10:00 AM', { exact: false })).toBeDefined();
    expect(within(card).getByRole('link', { name: 'Grace' })).toBeDefined();
    expect(within(card).getByText('That was a joke between friends.')).toBeDefined();
    expect(within(card).getByText('Report #12: Scamming')).toBeDefined();
    // The pictures load only when asked for: every look at evidence is recorded.
    expect(document.querySelectorAll('img')).toHaveLength(0);
    const view = within(card).getByRole('button', { name: 'Enlarge the evidence of report #12' });
    expect(view.textContent).toBe('View (2)');
    await userEvent.click(view);
    const dialog = await screen.findByRole('dialog', { name: 'Evidence for report #12' });
    expect([...dialog.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      '/api/admin/reports/report-1/screenshot',
      '/api/admin/snapshots/snap-1',
    ]);
  });

  it('offers a moderator no decision on an appeal an admin decides, and the decision on the others', async () => {
    onAppealsPage(
      [
        anAppeal({ user: { _id: 'bob-id', firstName: 'Bob' }, canDecide: false }),
        anAppeal({ caseId: 'c0ffee00-1111-4222-8333-777777777777', user: { _id: 'cy-id', firstName: 'Cy' } }),
      ],
      MODERATOR,
    );

    const admins = await screen.findByRole('article', { name: 'Appeal of Bob' });
    expect(within(admins).getByText('An admin decides this appeal.')).toBeDefined();
    expect(within(admins).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(admins).queryByRole('button', { name: 'Reject' })).toBeNull();
    expect(within(admins).queryByRole('textbox', { name: 'Decision note' })).toBeNull();
    // The evidence is still there to read.
    expect(within(admins).getByRole('button', { name: 'Enlarge the evidence of report #12' })).toBeDefined();

    const theirs = screen.getByRole('article', { name: 'Appeal of Cy' });
    expect(within(theirs).getByRole('button', { name: 'Approve' })).toBeDefined();
    expect(within(theirs).getByRole('button', { name: 'Reject' })).toBeDefined();
    expect(within(theirs).queryByText('An admin decides this appeal.')).toBeNull();
  });

  it('approves with a note (required), and the appeal leaves the queue', async () => {
    const server = onAppealsPage([anAppeal()]);
    const decide = `/api/admin/bans/${anAppeal().caseId}/appeal`;
    server.on('POST', decide, reply(200, { message: 'Appeal approved' }));

    const card = await screen.findByRole('article', { name: 'Appeal of Bob' });
    await userEvent.click(within(card).getByRole('button', { name: 'Approve' }));
    expect(within(card).getByText('Write a note saying what the review found.')).toBeDefined();
    expect(server.requestsTo('POST', decide)).toHaveLength(0);

    await userEvent.type(within(card).getByRole('textbox', { name: 'Decision note' }), 'Credible; first offence');
    await userEvent.click(within(card).getByRole('button', { name: 'Approve' }));

    await waitFor(() => expect(screen.queryByRole('article', { name: 'Appeal of Bob' })).toBeNull());
    expect(server.requestsTo('POST', decide)[0]?.body).toEqual({
      outcome: 'approved',
      note: 'Credible; first offence',
    });
    expect(screen.getByText('No appeals waiting for a decision.')).toBeDefined();
  });

  it('keeps the card and says why when the server refuses a rejection', async () => {
    const server = onAppealsPage([anAppeal()]);
    server.on(
      'POST',
      `/api/admin/bans/${anAppeal().caseId}/appeal`,
      reply(404, { statusCode: 404, message: `No pending appeal for case ${anAppeal().caseId}` }),
    );
    vi.spyOn(console, 'error').mockImplementation(() => {});

    const card = await screen.findByRole('article', { name: 'Appeal of Bob' });
    await userEvent.type(within(card).getByRole('textbox', { name: 'Decision note' }), 'Not credible');
    await userEvent.click(within(card).getByRole('button', { name: 'Reject' }));

    expect(await within(card).findByText(`No pending appeal for case ${anAppeal().caseId}`)).toBeDefined();
  });

  it('leaves the appeal of a moderator’s own ban to another staff member, and says so', async () => {
    // The viewer is aUser's user-1, who decided this ban.
    onAppealsPage([anAppeal({ bannedBy: { _id: 'user-1', firstName: 'Mona' }, canDecide: false })], MODERATOR);

    const card = await screen.findByRole('article', { name: 'Appeal of Bob' });
    expect(within(card).getByText('You decided this ban: another staff member decides the appeal.')).toBeDefined();
    expect(within(card).queryByText('An admin decides this appeal.')).toBeNull();
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('loads the queue again when staff hear it changed: an appeal filed meanwhile shows without a reload', async () => {
    const server = onAppealsPage([]);
    expect(await screen.findByText('No appeals waiting for a decision.')).toBeDefined();
    act(() => server.socket.serverConnects());
    server.on('GET', APPEALS, reply(200, { items: [anAppeal()], page: 1, totalPages: 1, total: 1 }));

    act(() =>
      server.socket.serverPushes({
        event: 'appealQueueChanged',
        payload: { caseId: anAppeal().caseId, eventId: 'e-1' },
      }),
    );

    expect(await screen.findByRole('article', { name: 'Appeal of Bob' })).toBeDefined();
    expect(screen.getByText('1 pending, oldest first')).toBeDefined();
  });

  describe('Comment removals', () => {
    const removal = (overrides: Partial<DashRemovalAppeal> = {}): DashRemovalAppeal => ({
      _id: 'comment-9',
      kind: 'comment',
      postId: 'post-1',
      author: { _id: 'cy-id', firstName: 'Cy' },
      text: 'what a f u c k i n g idiot',
      writtenAt: '2026-11-26T09:00:00.000Z',
      removal: { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:00:00.000Z', appeal: 'pending' },
      explanation: 'I was quoting a film.',
      appealedAt: '2026-11-26T09:10:00.000Z',
      ...overrides,
    });

    it('lists pending appeals of removed comments with the words, the violations and the explanation', async () => {
      onAppealsPage([], ADMIN, [
        removal(),
        removal({
          _id: 'reply-2',
          kind: 'reply',
          removal: { by: 'admin', categories: [], at: '2026-11-26T09:00:00.000Z', appeal: 'pending' },
        }),
      ]);

      const section = await screen.findByRole('region', { name: 'Comment removals' });
      const card = await within(section).findByRole('article', { name: "Appeal of Cy's comment" });
      expect(within(section).getByText('2 pending, oldest first')).toBeDefined();
      expect(within(card).getByText('what a f u c k i n g idiot')).toBeDefined();
      expect(within(card).getByText('The profanity filter')).toBeDefined();
      expect(within(card).getByText('Profanity')).toBeDefined();
      expect(within(card).getByText('I was quoting a film.')).toBeDefined();
      expect(within(card).getByRole('link', { name: 'Open the post' }).getAttribute('href')).toBe('/feed/post/post-1');
      expect(
        within(within(section).getByRole('article', { name: "Appeal of Cy's reply" })).getByText('Staff'),
      ).toBeDefined();
    });

    it('approves one (the note is optional) and it leaves the list; a refusal is said on the card', async () => {
      const server = onAppealsPage([], ADMIN, [removal(), removal({ _id: 'comment-8' })]);
      vi.spyOn(console, 'error').mockImplementation(() => {});
      server
        .on('POST', FEED_PATHS.decideRemovalAppeal('comment-9'), reply(204))
        .on(
          'POST',
          FEED_PATHS.decideRemovalAppeal('comment-8'),
          reply(409, { statusCode: 409, message: 'This comment was not removed.' }),
        );

      const section = await screen.findByRole('region', { name: 'Comment removals' });
      const [first, second] = await within(section).findAllByRole('article');
      await userEvent.click(within(first!).getByRole('button', { name: 'Approve' }));
      expect(await screen.findByText("Appeal approved: Cy's comment is shown again.")).toBeDefined();
      expect(server.requestsTo('POST', FEED_PATHS.decideRemovalAppeal('comment-9'))[0]?.body).toEqual({
        outcome: 'approved',
      });
      await waitFor(() => expect(within(section).getAllByRole('article')).toHaveLength(1));

      await userEvent.type(within(second!).getByRole('textbox', { name: 'Decision note (optional)' }), 'Clear insult');
      await userEvent.click(within(second!).getByRole('button', { name: 'Reject' }));
      expect(await within(second!).findByText('This comment was not removed.')).toBeDefined();
      expect(server.requestsTo('POST', FEED_PATHS.decideRemovalAppeal('comment-8'))[0]?.body).toEqual({
        outcome: 'rejected',
        note: 'Clear insult',
      });
    });

    it('says when none are waiting', async () => {
      onAppealsPage([]);
      expect(await screen.findByText('No appeals of comment removals waiting for a decision.')).toBeDefined();
    });
  });
});
