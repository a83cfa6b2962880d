import { FEED_ERRORS, FEED_PATHS, MODERATION_PATHS } from '@serendip/proto';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { aUser, inTurn, reply, resetBrowser } from '../../features/auth/auth-test-support';
import { ADA, aComment, aPostDetail, aReply, BOB, ROOT } from '../../features/feed/feed-test-support';
import '../../ui/test-polyfills';
import { openApp, signedIn } from './feed-page-test-support';

const POST = FEED_PATHS.post('post-1');
const COMMENT_ID = '0b6a1f4e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const commentTexts = () =>
  screen
    .queryAllByRole('article', { name: /^Comment by/ })
    .map((c) => c.querySelector('.feed-comment__text')?.textContent);
const commentBy = (name: string) => screen.getByRole('article', { name: `Comment by ${name}` });

describe('a post on its own page (/feed/post/:postId)', () => {
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    resetBrowser();
    vi.restoreAllMocks();
  });

  it('shows the post, its comments oldest first and their replies; Delete on mine only', async () => {
    signedIn((s) =>
      s.on(
        'GET',
        POST,
        reply(
          200,
          aPostDetail({
            commentCount: 2,
            comments: [
              aComment({ _id: 'c-1', author: BOB, text: 'First!', replies: [aReply({ author: ADA, text: 'Hi Bob' })] }),
              aComment({ _id: 'c-2', author: ROOT, text: 'Welcome', createdAt: '2026-11-26T09:30:00.000Z' }),
            ],
          }),
        ),
      ),
    );
    openApp('/feed/post/post-1');

    expect(await screen.findByText('Sunset over the harbour tonight.')).toBeDefined();
    expect(screen.getByText('2 comments')).toBeDefined();
    expect(commentTexts()).toEqual(['First!', 'Welcome']);
    const bob = commentBy('Bob');
    expect(within(bob).getByRole('link', { name: 'Bob' }).getAttribute('href')).toBe('/u/bob-id');
    expect(within(bob).queryByRole('button', { name: 'Delete' })).toBeNull();
    const replies = within(bob).getByRole('list', { name: 'Replies to Bob' });
    expect(within(replies).getByText('Hi Bob')).toBeDefined();
    expect(within(replies).getByRole('button', { name: 'Delete reply: Hi Bob' })).toBeDefined();
    expect(within(commentBy('Root')).getByText('Administrator')).toBeDefined();
  });

  it('says the post no longer exists when the server says so (404)', async () => {
    signedIn((s) => s.on('GET', POST, reply(404, { statusCode: 404, message: FEED_ERRORS.postNotFound })));
    openApp('/feed/post/post-1');

    expect(await screen.findByText('This post no longer exists.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to the feed' }).getAttribute('href')).toBe('/feed');
  });

  it('says when there are no comments, and shows my comment once though its push comes too', async () => {
    const user = userEvent.setup();
    const mine = aComment({ _id: 'c-mine', text: 'What a view' });
    const server = signedIn((s) =>
      s.on('GET', POST, reply(200, aPostDetail())).on('POST', FEED_PATHS.comments('post-1'), reply(201, mine)),
    );
    const { push, socket } = openApp('/feed/post/post-1');

    expect(await screen.findByText('No comments yet. Start the conversation.')).toBeDefined();
    act(() => socket.serverConnects());
    await user.type(screen.getByRole('textbox', { name: 'Write a comment' }), 'What a view');
    await user.click(screen.getByRole('button', { name: 'Comment' }));

    await waitFor(() => expect(commentTexts()).toEqual(['What a view']));
    push('CommentReplyBadWord', { postId: 'post-1', comment: mine });
    expect(commentTexts()).toEqual(['What a view']);
    expect(screen.getByText('1 comment')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.comments('post-1')).map((r) => r.body)).toEqual([
      { text: 'What a view' },
    ]);
  });

  it('takes live comments the way spec 5 says: a user from CommentReplyBadWord, not newComment', async () => {
    signedIn((s) => s.on('GET', POST, reply(200, aPostDetail())));
    const { push, socket } = openApp('/feed/post/post-1');
    await screen.findByText('No comments yet. Start the conversation.');
    act(() => socket.serverConnects());

    push('newComment', { postId: 'post-1', comment: aComment({ _id: 'c-a', text: 'Seen by admins' }) });
    push('CommentReplyBadWord', { postId: 'post-1', comment: aComment({ _id: 'c-b', text: 'Seen by users' }) });
    push('CommentReplyBadWord', { postId: 'post-1', comment: { ...aComment({ text: 'No id' }), _id: undefined } });

    await waitFor(() => expect(commentTexts()).toEqual(['Seen by users']));
  });

  it('takes live comments the way spec 5 says: an admin from newComment, not CommentReplyBadWord', async () => {
    signedIn(
      (s) => s.on('GET', POST, reply(200, aPostDetail())),
      aUser({ _id: 'root-id', firstName: 'Root', isAdmin: true, role: 'admin', twoFactorEnabled: true }),
    );
    const { push, socket } = openApp('/feed/post/post-1');
    await screen.findByText('No comments yet. Start the conversation.');
    act(() => socket.serverConnects());

    push('CommentReplyBadWord', { postId: 'post-1', comment: aComment({ _id: 'c-b', text: 'Seen by users' }) });
    push('newComment', {
      postId: 'post-1',
      comment: aComment({
        _id: 'c-a',
        text: 'you f u c k i n g idiot',
        removed: { by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:06:00Z', appeal: 'none' },
      }),
    });

    // An admin sees what the filter removed, greyed, and why.
    await waitFor(() => expect(commentTexts()).toEqual(['you f u c k i n g idiot']));
    expect(within(commentBy('Ada')).getByText('Removed: Profanity')).toBeDefined();
    expect(commentBy('Ada').className).toContain('is-removed');
  });

  it('replies to a comment, and follows replies and deletions live', async () => {
    const user = userEvent.setup();
    const answer = aReply({ _id: 'r-mine', author: ADA, text: 'Agreed' });
    signedIn((s) =>
      s
        .on(
          'GET',
          POST,
          reply(
            200,
            aPostDetail({
              comments: [
                aComment({ author: BOB, text: 'Great shot' }),
                aComment({ _id: 'c-2', author: ROOT, text: 'Off topic', createdAt: '2026-11-26T09:40:00Z' }),
              ],
            }),
          ),
        )
        .on('POST', FEED_PATHS.replies('comment-1'), reply(201, answer)),
    );
    const { push, socket } = openApp('/feed/post/post-1');

    const bob = await waitFor(() => commentBy('Bob'));
    act(() => socket.serverConnects());
    await user.click(within(bob).getByRole('button', { name: 'Reply' }));
    await user.type(within(bob).getByRole('textbox', { name: 'Write a reply to Bob' }), 'Agreed');
    await user.click(within(bob).getByRole('button', { name: 'Send reply' }));

    const replies = await within(bob).findByRole('list', { name: 'Replies to Bob' });
    expect(within(replies).getByText('Agreed')).toBeDefined();
    push('newReply', { commentId: 'comment-1', reply: answer });
    push('newReply', { commentId: 'comment-1', reply: aReply({ _id: 'r-2', text: 'Me too' }) });
    await within(replies).findByText('Me too');
    expect(within(replies).getAllByRole('listitem')).toHaveLength(2);

    push('replyDeleted', { postId: 'post-1', commentId: 'comment-1', replyId: 'r-2' });
    await waitFor(() => expect(within(replies).queryByText('Me too')).toBeNull());
    push('commentDeleted', { postId: 'post-1', commentId: 'c-2' });
    await waitFor(() => expect(commentTexts()).toEqual(['Great shot']));
  });

  it('deletes my comment after asking', async () => {
    const server = signedIn((s) =>
      s
        .on(
          'GET',
          POST,
          reply(200, aPostDetail({ comments: [aComment({ _id: 'c-mine', author: ADA, text: 'Oops' })] })),
        )
        .on('DELETE', FEED_PATHS.comment('c-mine'), reply(204)),
    );
    openApp('/feed/post/post-1');

    const mine = await waitFor(() => commentBy('Ada'));
    await userEvent.click(within(mine).getByRole('button', { name: 'Delete' }));
    const ask = await screen.findByRole('alertdialog', { name: 'Delete this comment?' });
    await userEvent.click(within(ask).getByRole('button', { name: 'Delete' }));

    expect(await screen.findByText('Comment deleted.')).toBeDefined();
    await waitFor(() => expect(commentTexts()).toEqual([]));
    expect(server.requestsTo('DELETE', FEED_PATHS.comment('c-mine'))).toHaveLength(1);
  });

  it('shows my removed comment greyed with why, not hidden', async () => {
    signedIn((s) =>
      s.on(
        'GET',
        POST,
        reply(
          200,
          aPostDetail({
            comments: [
              aComment({
                author: ADA,
                text: 'fuuuck this',
                removed: {
                  by: 'filter',
                  categories: ['Profanity', 'Hate Speech'],
                  at: '2026-11-26T09:06:00Z',
                  appeal: 'none',
                },
              }),
            ],
          }),
        ),
      ),
    );
    openApp('/feed/post/post-1');

    const mine = await waitFor(() => commentBy('Ada'));
    expect(within(mine).getByText('Removed: Profanity, Hate Speech')).toBeDefined();
    expect(within(mine).queryByRole('button', { name: 'Reply' })).toBeNull();
  });

  it('lets me appeal my own removed comment or reply once, and says how the appeal stands', async () => {
    const user = userEvent.setup();
    const removal = (appeal: 'none' | 'pending' | 'rejected') =>
      ({ by: 'filter', categories: ['Profanity'], at: '2026-11-26T09:06:00Z', appeal }) as const;
    const server = signedIn((s) =>
      s
        .on(
          'GET',
          POST,
          reply(
            200,
            aPostDetail({
              comments: [
                aComment({
                  _id: COMMENT_ID,
                  author: ADA,
                  text: 'fuuuck this',
                  removed: { ...removal('none'), categories: ['Profanity'] },
                  replies: [
                    aReply({
                      _id: 'r-1',
                      author: ADA,
                      text: 'and you',
                      removed: { ...removal('pending'), categories: [] },
                    }),
                    aReply({
                      _id: 'r-2',
                      author: ADA,
                      text: 'idiots',
                      removed: { ...removal('rejected'), categories: [] },
                    }),
                  ],
                }),
                aComment({ _id: 'c-bob', author: BOB, text: 'gone', removed: { ...removal('none'), categories: [] } }),
              ],
            }),
          ),
        )
        .on('POST', FEED_PATHS.appealRemoval(COMMENT_ID), reply(201, {})),
    );
    openApp('/feed/post/post-1');

    const mine = await waitFor(() => commentBy('Ada'));
    const replies = within(mine).getByRole('list', { name: 'Replies to Ada' });
    expect(within(replies).getByText('Appeal sent')).toBeDefined();
    expect(within(replies).getByText('Appeal rejected')).toBeDefined();
    // Only my own removed words can be appealed, each once.
    expect(screen.getAllByRole('button', { name: 'Appeal' })).toHaveLength(1);

    await user.click(within(mine).getByRole('button', { name: 'Appeal' }));
    const dialog = await screen.findByRole('dialog', { name: 'Appeal the removal of your comment' });
    const box = within(dialog).getByRole('textbox', { name: 'Your appeal' });
    expect(box.getAttribute('placeholder')).toBe('Explain why you believe this comment should be shown again...');
    await user.type(box, '   ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Appeal' }));
    expect(within(dialog).getByText('Please provide a reason for your appeal.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.appealRemoval(COMMENT_ID))).toHaveLength(0);

    await user.type(box, 'I was quoting a film.');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Appeal' }));
    expect(await screen.findByText('Your appeal was sent.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.appealRemoval(COMMENT_ID)).map((r) => r.body)).toEqual([
      { explanation: 'I was quoting a film.' },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(within(mine).queryByRole('button', { name: 'Appeal' })).toBeNull();
    expect(within(mine).getAllByText('Appeal sent')).toHaveLength(2);
  });

  it('says the post is gone when it is deleted while open', async () => {
    signedIn((s) => s.on('GET', POST, reply(200, aPostDetail())));
    const { push, socket } = openApp('/feed/post/post-1');
    await screen.findByText('Sunset over the harbour tonight.');
    act(() => socket.serverConnects());

    push('postDeleted', { postId: 'post-1' });
    expect(await screen.findByText('This post no longer exists.')).toBeDefined();
  });

  it('says why a comment was refused, keeping the text', async () => {
    const user = userEvent.setup();
    signedIn((s) =>
      s
        .on('GET', POST, reply(200, aPostDetail()))
        .on(
          'POST',
          FEED_PATHS.comments('post-1'),
          reply(429, { statusCode: 429, message: 'Too Many Requests' }, { 'Retry-After': '120' }),
        ),
    );
    openApp('/feed/post/post-1');

    const box = await screen.findByRole('textbox', { name: 'Write a comment' });
    await user.type(box, 'Again');
    await user.click(screen.getByRole('button', { name: 'Comment' }));
    expect(await screen.findByText('Too many attempts. Try again in 2 minutes.')).toBeDefined();
    expect((box as HTMLTextAreaElement).value).toBe('Again');
  });

  it("reports someone else's post and comment into the moderation queue: a reason first, each once", async () => {
    const user = userEvent.setup();
    const server = signedIn((s) =>
      s
        .on(
          'GET',
          POST,
          reply(
            200,
            aPostDetail({
              comments: [aComment({ _id: COMMENT_ID, author: BOB, text: 'Buy followers at spam.example' })],
            }),
          ),
        )
        .on(
          'POST',
          MODERATION_PATHS.reportContent,
          inTurn(
            reply(201, { reportId: 'r-1', message: 'Filed' }),
            reply(409, { statusCode: 409, message: 'You have reported this already.' }),
          ),
        ),
    );
    openApp('/feed/post/post-1');

    const post = await screen.findByRole('article', { name: 'Post by Bob' });
    await user.click(within(post).getByRole('button', { name: 'Report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Report post' });
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    expect(within(dialog).getByText('Please provide a reason for the report.')).toBeDefined();
    expect(server.requestsTo('POST', MODERATION_PATHS.reportContent)).toHaveLength(0);

    await user.selectOptions(within(dialog).getByLabelText('Reason'), 'harassment');
    await user.type(within(dialog).getByLabelText('Details (optional)'), ' Mocks me in every post. ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit report' }));
    expect(await screen.findByText('Report submitted successfully')).toBeDefined();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await user.click(within(commentBy('Bob')).getByRole('button', { name: 'Report' }));
    const again = await screen.findByRole('dialog', { name: 'Report comment' });
    await user.selectOptions(within(again).getByLabelText('Reason'), 'spam');
    await user.click(within(again).getByRole('button', { name: 'Submit report' }));
    expect(await screen.findByText('You have reported this already.')).toBeDefined();
    expect(screen.getByRole('dialog', { name: 'Report comment' })).toBeDefined();

    expect(server.requestsTo('POST', MODERATION_PATHS.reportContent).map((r) => r.body)).toEqual([
      { kind: 'post', id: 'post-1', reason: 'harassment', details: 'Mocks me in every post.' },
      { kind: 'comment', id: COMMENT_ID, reason: 'spam' },
    ]);
  });

  it('offers no Report on my own words, nor on a removed comment', async () => {
    signedIn(
      (s) =>
        s.on(
          'GET',
          POST,
          reply(
            200,
            aPostDetail({
              author: ADA,
              comments: [
                aComment({ author: ADA, text: 'Mine' }),
                aComment({
                  _id: 'c-2',
                  author: BOB,
                  text: 'gone',
                  removed: { by: 'admin', categories: [], at: '2026-11-26T09:06:00Z', appeal: 'none' },
                }),
              ],
            }),
          ),
        ),
      aUser({ isAdmin: true, role: 'admin', twoFactorEnabled: true }),
    );
    openApp('/feed/post/post-1');

    await screen.findByText('Mine');
    expect(screen.queryByRole('button', { name: 'Report' })).toBeNull();
    expect(within(commentBy('Bob')).getByText('Removed')).toBeDefined();
    expect(within(commentBy('Bob')).queryByRole('button', { name: 'Appeal' })).toBeNull();
  });

  it('lets staff take a comment or reply down with a reason (its author is told); users get no Remove', async () => {
    const user = userEvent.setup();
    const detail = aPostDetail({
      comments: [
        aComment({
          _id: COMMENT_ID,
          author: BOB,
          text: 'Nasty words',
          replies: [aReply({ _id: 'r-9', author: ROOT, text: 'Calm down' })],
        }),
      ],
    });
    const server = signedIn(
      (s) => s.on('GET', POST, reply(200, detail)).on('POST', FEED_PATHS.remove(COMMENT_ID), reply(204)),
      aUser({ role: 'moderator', isAdmin: false, twoFactorEnabled: true }),
    );
    openApp('/feed/post/post-1');

    const bob = await waitFor(() => commentBy('Bob'));
    expect(within(bob).getByRole('button', { name: 'Remove reply: Calm down' })).toBeDefined();
    await user.click(within(bob).getAllByRole('button', { name: 'Remove' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Remove comment' });
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('Say why the comment is removed: Bob is told.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.remove(COMMENT_ID))).toHaveLength(0);

    await user.type(within(dialog).getByRole('textbox', { name: 'Reason' }), 'Insults another member');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('The comment was removed. Bob is told why.')).toBeDefined();
    expect(server.requestsTo('POST', FEED_PATHS.remove(COMMENT_ID)).map((r) => r.body)).toEqual([
      { reason: 'Insults another member' },
    ]);
    // It stays on staff's page, greyed: why is in its author's notice.
    await waitFor(() => expect(commentBy('Bob').className).toContain('is-removed'));
    expect(within(commentBy('Bob')).getByText('Removed')).toBeDefined();
  });

  it('offers a user no Remove', async () => {
    signedIn((s) => s.on('GET', POST, reply(200, aPostDetail({ comments: [aComment({ author: BOB })] }))));
    openApp('/feed/post/post-1');

    await waitFor(() => commentBy('Bob'));
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
  });
});
