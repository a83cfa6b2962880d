import { FEED_PATHS } from '@serendip/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, inTurn, reply, resetBrowser } from '../../features/auth/auth-test-support';
import { ADA, aPost, BOB } from '../../features/feed/feed-test-support';
import '../../ui/test-polyfills';
import { openApp, signedIn } from './feed-page-test-support';

describe('profile, peer and activity pages', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    resetBrowser();
    vi.restoreAllMocks();
  });

  it('/profile: my picture, first name (as others see it), age, country, bio, a link to Settings, and my posts', async () => {
    signedIn(
      (s) => s.on('GET', FEED_PATHS.userPosts('user-1'), reply(200, { items: [aPost({ author: ADA, text: 'Mine' })] })),
      aUser({ bio: 'Counting engines.', userBirthDate: '1990-12-10' }),
    );
    openApp('/profile');

    expect(await screen.findByRole('heading', { level: 1, name: 'Ada' })).toBeDefined();
    expect(screen.getByText(/\d+ years old/)).toBeDefined();
    expect(screen.getByText('United Kingdom')).toBeDefined();
    expect(screen.getByText('Counting engines.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Edit in Settings' }).getAttribute('href')).toBe('/settings/profile');
    const posts = await screen.findByRole('list', { name: 'Your posts, newest first' });
    expect(within(posts).getByText('Mine')).toBeDefined();
  });

  it('/profile says when I have not posted yet', async () => {
    signedIn((s) => s.on('GET', FEED_PATHS.userPosts('user-1'), reply(200, { items: [] })));
    openApp('/profile');

    expect(await screen.findByText('You have not posted anything yet.')).toBeDefined();
  });

  it('/u/:id: their first name, picture, age, country with its flag, bio, the admin badge, and their posts', async () => {
    signedIn((s) =>
      s
        .on(
          'GET',
          FEED_PATHS.peer('bob-id'),
          reply(200, {
            _id: 'bob-id',
            firstName: 'Bob',
            avatar: null,
            age: 29,
            country: 'de',
            bio: 'Hi!',
            isAdmin: true,
          }),
        )
        .on('GET', FEED_PATHS.userPosts('bob-id'), reply(200, { items: [aPost({ author: BOB, text: "Bob's post" })] })),
    );
    openApp('/u/bob-id');

    const heading = await screen.findByRole('heading', { level: 1, name: /Bob/ });
    expect(within(heading).getByText('Administrator')).toBeDefined();
    expect(screen.getByText('29 years old')).toBeDefined();
    expect(screen.getByText('Germany')).toBeDefined();
    expect(document.querySelector('.fi-de')).not.toBeNull();
    expect(screen.getByText('Hi!')).toBeDefined();
    expect(await screen.findByText("Bob's post")).toBeDefined();
  });

  it('/u/:id says when they have not posted, or are gone; and when it failed (Try again)', async () => {
    signedIn((s) =>
      s
        .on(
          'GET',
          FEED_PATHS.peer('bob-id'),
          inTurn(
            reply(503, { statusCode: 503, message: 'Service Unavailable' }),
            reply(200, { _id: 'bob-id', firstName: 'Bob', avatar: null, bio: '', isAdmin: false }),
          ),
        )
        .on('GET', FEED_PATHS.userPosts('bob-id'), reply(200, { items: [] }))
        .on('GET', FEED_PATHS.peer('gone-id'), reply(404, { statusCode: 404, message: 'Not Found' })),
    );
    const { router } = openApp('/u/bob-id');

    expect((await screen.findByRole('alert')).textContent).toContain('This profile could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Bob has not posted anything yet.')).toBeDefined();

    await router.navigate('/u/gone-id');
    expect(await screen.findByText("We couldn't find this person.")).toBeDefined();
  });

  it('/u/<my own id> is /profile', async () => {
    signedIn((s) => s.on('GET', FEED_PATHS.userPosts('user-1'), reply(200, { items: [] })));
    const { router } = openApp('/u/user-1');

    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Ada' })).toBeDefined();
  });

  it('/activity lists what I did, newest first, each linking to its post, with Load more', async () => {
    signedIn((s) =>
      s.on(
        'GET',
        FEED_PATHS.activity,
        inTurn(
          reply(200, {
            items: [
              { kind: 'like', at: '2026-11-26T09:50:00Z', postId: 'p-9', text: 'A post I liked' },
              {
                kind: 'comment',
                at: '2026-11-26T09:40:00Z',
                postId: 'p-8',
                commentId: 'c-1',
                text: 'a bad word',
                removed: { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:40:01Z' },
              },
              { kind: 'call', at: '2026-11-26T09:00:00Z', matchId: 'm-1', partnerFirstName: 'Bob', seconds: 252 },
            ],
            next: 'cursor-2',
          }),
          reply(200, { items: [{ kind: 'post', at: '2026-11-25T09:00:00Z', postId: 'p-1', text: 'My first post' }] }),
        ),
      ),
    );
    openApp('/activity');

    const list = await screen.findByRole('list', { name: 'Your activity, newest first' });
    const lines = () =>
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(lines()[0]).toMatch(/^You liked a post .*A post I liked$/);
    expect(lines()[1]).toContain('Removed: Profanity');
    expect(lines()[2]).toMatch(/^You had a call with Bob for 4 min 12 s/);
    expect(within(list).getByRole('link', { name: 'A post I liked' }).getAttribute('href')).toBe('/feed/post/p-9');

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await within(list).findByText('My first post')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('/activity says when there is nothing yet', async () => {
    signedIn((s) => s.on('GET', FEED_PATHS.activity, reply(200, { items: [] })));
    openApp('/activity');

    expect(await screen.findByText('Nothing here yet. Your posts, comments, likes and calls show here.')).toBeDefined();
  });
});
