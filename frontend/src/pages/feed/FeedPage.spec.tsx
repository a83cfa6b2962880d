import { FEED_ERRORS, FEED_IMAGE_MAX_BYTES, FEED_PATHS, FEED_LIMITS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, inTurn, reply, resetBrowser, serveFakeApi } from '../../features/auth/auth-test-support';
import { aBan, BANNED_USER_PATHS } from '../../features/moderation/moderation-test-support';
import { ADA, aPost, BOB, ROOT } from '../../features/feed/feed-test-support';
import '../../ui/test-polyfills';
import { openApp, postBy, signedIn } from './feed-page-test-support';

const IMAGE_ID = '6f1c2a52-8d3e-4b7a-9c1d-2e3f4a5b6c7d';

describe('the feed (/feed)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    resetBrowser();
    vi.restoreAllMocks();
  });

  it('lists posts newest first: who (linked, admin badge), when, text, likes and comments; Delete on mine only', async () => {
    signedIn((s) =>
      s.on(
        'GET',
        FEED_PATHS.posts,
        reply(200, {
          items: [
            aPost({ _id: 'p-3', author: ROOT, text: 'Welcome to the feed!', likeCount: 12, commentCount: 1 }),
            aPost({ _id: 'p-2', author: ADA, text: 'My first post', likedByMe: true, likeCount: 1 }),
            aPost({ _id: 'p-1', author: BOB, text: 'Hello there' }),
          ],
        }),
      ),
    );
    openApp('/feed');

    expect(await screen.findByRole('heading', { level: 1, name: 'Feed' })).toBeDefined();
    const list = await screen.findByRole('list', { name: 'Posts, newest first' });
    expect(
      within(list)
        .getAllByRole('article')
        .map((a) => a.querySelector('.feed-post__text')?.textContent),
    ).toEqual(['Welcome to the feed!', 'My first post', 'Hello there']);
    const root = postBy('Root');
    expect(within(root).getByRole('link', { name: 'Root' }).getAttribute('href')).toBe('/u/root-id');
    expect(within(root).getByText('Administrator')).toBeDefined();
    expect(within(root).getByText('12 likes')).toBeDefined();
    expect(within(root).getByRole('link', { name: '1 comment' }).getAttribute('href')).toBe('/feed/post/p-3');
    expect(within(root).getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('false');
    expect(within(root).queryByRole('button', { name: 'Delete' })).toBeNull();

    const mine = postBy('Ada');
    expect(within(mine).getByRole('link', { name: 'Ada' }).getAttribute('href')).toBe('/profile');
    expect(within(mine).getByRole('button', { name: 'Like' }).getAttribute('aria-pressed')).toBe('true');
    expect(within(mine).getByRole('button', { name: 'Delete' })).toBeDefined();
    expect(within(mine).queryByText('Administrator')).toBeNull();
    expect(within(postBy('Bob')).getByText('0 likes')).toBeDefined();
  });

  it('says when there are no posts yet, and when they could not load (Try again)', async () => {
    signedIn((s) =>
      s.on(
        'GET',
        FEED_PATHS.posts,
        inTurn(reply(503, { statusCode: 503, message: 'Service Unavailable' }), reply(200, { items: [] })),
      ),
    );
    openApp('/feed');

    expect((await screen.findByRole('alert')).textContent).toContain('The posts could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No posts yet. Be the first to share something.')).toBeDefined();
  });

  it('loads the next page with the cursor, then has no Load more', async () => {
    const server = signedIn((s) =>
      s.on(
        'GET',
        FEED_PATHS.posts,
        inTurn(
          reply(200, { items: [aPost({ _id: 'p-2', text: 'Newer' })], next: 'cursor-2' }),
          reply(200, { items: [aPost({ _id: 'p-2', text: 'Newer' }), aPost({ _id: 'p-1', text: 'Older' })] }),
        ),
      ),
    );
    openApp('/feed');

    await userEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Older')).toBeDefined();
    expect(screen.getAllByRole('article')).toHaveLength(2);
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const asked = server.fetch.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/feed/posts'));
    expect(asked.at(-1)).toBe('/api/feed/posts?cursor=cursor-2');
  });

  it('publishes a post: counted to the limit, sent trimmed, shown at the top', async () => {
    const user = userEvent.setup();
    const server = signedIn((s) =>
      s
        .on('GET', FEED_PATHS.posts, reply(200, { items: [aPost({ text: 'Older post' })] }))
        .on('POST', FEED_PATHS.posts, reply(201, aPost({ _id: 'p-new', author: ADA, text: 'Hello, Serendip!' }))),
    );
    openApp('/feed');

    const box = await screen.findByRole('textbox', { name: 'Write a post' });
    const post = screen.getByRole('button', { name: 'Post' });
    expect((post as HTMLButtonElement).disabled).toBe(true);
    await user.type(box, '  Hello, Serendip!  ');
    expect(screen.getByText(`20 / ${FEED_LIMITS.post.toLocaleString('en')}`, { exact: false })).toBeDefined();
    await user.click(post);

    expect(await screen.findByText('Your post is live.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.posts).map((r) => r.body)).toEqual([{ text: 'Hello, Serendip!' }]);
    expect((box as HTMLTextAreaElement).value).toBe('');
    await waitFor(() =>
      expect(screen.getAllByRole('article').map((a) => a.querySelector('.feed-post__text')?.textContent)).toEqual([
        'Hello, Serendip!',
        'Older post',
      ]),
    );
  });

  it("refuses a post over the limit before sending, and says the server's reason when it refuses one", async () => {
    const user = userEvent.setup();
    const server = signedIn((s) =>
      s
        .on('GET', FEED_PATHS.posts, reply(200, { items: [] }))
        .on(
          'POST',
          FEED_PATHS.posts,
          reply(400, { statusCode: 400, message: ['text must be at most 2,000 characters'] }),
        ),
    );
    openApp('/feed');

    const box = await screen.findByRole('textbox', { name: 'Write a post' });
    await user.click(box);
    await user.paste('x'.repeat(FEED_LIMITS.post + 1));
    expect(box.getAttribute('aria-invalid')).toBe('true');
    expect((screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement).disabled).toBe(true);

    await user.clear(box);
    await user.type(box, 'fine');
    await user.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('The text must be at most 2,000 characters.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.posts)).toHaveLength(1);
    expect((box as HTMLTextAreaElement).value).toBe('fine');
  });

  it('posts a picture: checked, uploaded at once as its bytes, previewed, sent by its id, shown on the post', async () => {
    const user = userEvent.setup({ applyAccept: false });
    const server = signedIn((s) =>
      s
        .on('GET', FEED_PATHS.posts, reply(200, { items: [] }))
        .on('POST', FEED_PATHS.images, reply(201, { imageId: IMAGE_ID, url: FEED_PATHS.image(IMAGE_ID) }))
        .on(
          'POST',
          FEED_PATHS.posts,
          reply(201, aPost({ _id: 'p-pic', author: ADA, text: '', image: FEED_PATHS.image(IMAGE_ID) })),
        ),
    );
    const { container } = openApp('/feed');
    await screen.findByText('No posts yet. Be the first to share something.');
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;

    // Refused here, before any byte is sent: the wrong kind of file, or too large.
    await user.upload(input, new File(['GIF89a'], 'cat.gif', { type: 'image/gif' }));
    expect(await screen.findByText('Choose a JPEG, PNG or WebP picture.')).toBeDefined();
    await user.upload(input, new File([new Uint8Array(FEED_IMAGE_MAX_BYTES + 1)], 'huge.png', { type: 'image/png' }));
    expect(await screen.findByText('The picture is too large: 8 MB at most.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.images)).toHaveLength(0);

    const photo = new File(['\x89PNG'], 'sunset.png', { type: 'image/png' });
    await user.upload(input, photo);
    const preview = await screen.findByRole('img', { name: 'The picture you are about to post' });
    expect(preview.getAttribute('src')).toBe(FEED_PATHS.image(IMAGE_ID));
    const [, init] = server.fetch.mock.calls.find(([url]) => String(url) === FEED_PATHS.images)!;
    expect(init?.body).toBe(photo);
    expect(new Headers(init?.headers).get('Content-Type')).toBe('image/png');

    // A picture alone is a post.
    await user.click(screen.getByRole('button', { name: 'Post' }));
    expect(await screen.findByText('Your post is live.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.posts).map((r) => r.body)).toEqual([{ imageId: IMAGE_ID }]);
    const shown = await screen.findByRole('img', { name: 'Picture posted by Ada' });
    expect(shown.getAttribute('src')).toBe(FEED_PATHS.image(IMAGE_ID));
    expect(screen.queryByRole('img', { name: 'The picture you are about to post' })).toBeNull();
  });

  it('removes a picked picture, and says when one could not be uploaded', async () => {
    const user = userEvent.setup();
    signedIn((s) =>
      s.on('GET', FEED_PATHS.posts, reply(200, { items: [] })).on(
        'POST',
        FEED_PATHS.images,
        inTurn(
          reply(400, {
            statusCode: 400,
            error: 'Bad Request',
            message: ['image must be a JPEG, PNG or WebP picture'],
          }),
          reply(415, { statusCode: 415, message: 'This is not a picture we can read.' }),
          reply(201, { imageId: IMAGE_ID, url: FEED_PATHS.image(IMAGE_ID) }),
        ),
      ),
    );
    const { container } = openApp('/feed');
    await screen.findByText('No posts yet. Be the first to share something.');
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;

    // Bytes the server refuses (a GIF named .jpg) get the words a wrong type gets here.
    await user.upload(input, new File(['GIF89a'], 'cat.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('Choose a JPEG, PNG or WebP picture.')).toBeDefined();
    expect(screen.queryByText(/image must be/i)).toBeNull();
    await user.upload(input, new File(['x'], 'broken.jpg', { type: 'image/jpeg' }));
    expect(await screen.findByText('This is not a picture we can read.')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Add picture' })).toBeDefined();

    await user.upload(input, new File(['x'], 'fine.jpg', { type: 'image/jpeg' }));
    await screen.findByRole('img', { name: 'The picture you are about to post' });
    expect((screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement).disabled).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Remove picture' }));
    expect(screen.queryByRole('img', { name: 'The picture you are about to post' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Post' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('likes and unlikes (the answer is the count), and follows others’ likes live', async () => {
    const server = signedIn((s) =>
      s
        .on('GET', FEED_PATHS.posts, reply(200, { items: [aPost({ likeCount: 2, likes: ['x', 'y'] })] }))
        .on(
          'PUT',
          FEED_PATHS.like('post-1'),
          reply(200, { postId: 'post-1', likes: ['user-1'], likeCount: 3, likedByMe: true }),
        )
        .on(
          'DELETE',
          FEED_PATHS.like('post-1'),
          reply(200, { postId: 'post-1', likes: [], likeCount: 2, likedByMe: false }),
        ),
    );
    const { push, socket } = openApp('/feed');

    const like = await screen.findByRole('button', { name: 'Like' });
    await userEvent.click(like);
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('true'));
    expect(screen.getByText('3 likes')).toBeDefined();

    act(() => socket.serverConnects());
    push('postLiked', { postId: 'post-1', likes: ['bob-id', 'user-1'], likeCount: 4, userId: 'bob-id' });
    expect(await screen.findByText('4 likes')).toBeDefined();
    expect(like.getAttribute('aria-pressed')).toBe('true');

    await userEvent.click(like);
    await waitFor(() => expect(like.getAttribute('aria-pressed')).toBe('false'));
    expect(screen.getByText('2 likes')).toBeDefined();
    expect(server.requestsTo('DELETE', FEED_PATHS.like('post-1'))).toHaveLength(1);
  });

  it('says why a like failed (the post was deleted)', async () => {
    signedIn((s) =>
      s
        .on('GET', FEED_PATHS.posts, reply(200, { items: [aPost()] }))
        .on('PUT', FEED_PATHS.like('post-1'), reply(404, { statusCode: 404, message: FEED_ERRORS.postNotFound })),
    );
    openApp('/feed');

    await userEvent.click(await screen.findByRole('button', { name: 'Like' }));
    expect(await screen.findByText('This post no longer exists.')).toBeDefined();
  });

  it('deletes my post after asking; Cancel keeps it; a post deleted elsewhere goes live', async () => {
    const server = signedIn((s) =>
      s
        .on(
          'GET',
          FEED_PATHS.posts,
          reply(200, { items: [aPost({ _id: 'mine', author: ADA, text: 'Delete me' }), aPost({ text: "Bob's" })] }),
        )
        .on('DELETE', FEED_PATHS.post('mine'), reply(204)),
    );
    const { push, socket } = openApp('/feed');

    const mine = await waitFor(() => postBy('Ada'));
    await userEvent.click(within(mine).getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Delete this post?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(server.requestsTo('DELETE', FEED_PATHS.post('mine'))).toHaveLength(0);

    await userEvent.click(within(mine).getByRole('button', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Delete this post?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Post deleted.')).toBeDefined();
    await waitFor(() => expect(screen.queryByText('Delete me')).toBeNull());

    act(() => socket.serverConnects());
    push('postDeleted', { postId: 'post-1' });
    expect(await screen.findByText('No posts yet. Be the first to share something.')).toBeDefined();
  });

  it('counts comments live: CommentReplyBadWord for a user, once per comment', async () => {
    signedIn((s) => s.on('GET', FEED_PATHS.posts, reply(200, { items: [aPost({ commentCount: 1 })] })));
    const { push, socket } = openApp('/feed');

    await screen.findByRole('link', { name: '1 comment' });
    act(() => socket.serverConnects());
    const comment = {
      _id: 'c-1',
      postId: 'post-1',
      author: BOB,
      text: 'Nice',
      createdAt: '2026-11-26T10:00:00Z',
      replies: [],
    };
    push('newComment', { postId: 'post-1', comment }); // for admins only
    push('CommentReplyBadWord', { postId: 'post-1', comment });
    push('CommentReplyBadWord', { postId: 'post-1', comment });
    expect(await screen.findByRole('link', { name: '2 comments' })).toBeDefined();
  });

  it('shows a banned user the restriction screen instead, asking nothing of the feed', async () => {
    const server = signedIn(
      (s) => s.on('GET', BANNED_USER_PATHS.banInfo, reply(200, { isBanned: true, ban: aBan() })),
      aUser({ isBanned: true }),
    );
    openApp('/feed');

    expect(await screen.findByRole('heading', { name: 'Account Restricted' })).toBeDefined();
    expect(server.requestsTo('GET', FEED_PATHS.posts)).toHaveLength(0);
  });

  it('is for signed-in users only', async () => {
    serveFakeApi();
    const { router } = openApp('/feed');

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    await waitFor(() => expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/feed')}`));
  });
});
