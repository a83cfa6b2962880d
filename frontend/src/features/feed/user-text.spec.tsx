import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ReportedWords } from '../../pages/dashboard/reports/report-bits';
import { aPost, BOB } from './feed-test-support';
import { PostCard } from './PostCard';
import '../../ui/test-polyfills';

const MARKUP = '<img src=x onerror="window.pwned=1"><a href="javascript:alert(1)">click</a>';

/**
 * What people write in the feed reaches other people's pages and the staff's report table: it is shown as the words it
 * is, never read as markup, and the links beside it go to our own pages only.
 */
describe('words written in the feed, as others see them', () => {
  it("shows a post's markup as text, with only the server's picture and the author's own page as links", () => {
    const { container } = render(
      <MemoryRouter>
        <PostCard
          post={aPost({ text: MARKUP, author: { ...BOB, firstName: '<b>Bob</b>' }, image: '/api/feed/images/img-1' })}
          viewerId="user-1"
          onLike={async () => {}}
          onDelete={async () => {}}
        />
      </MemoryRouter>,
    );
    expect(screen.getByText(MARKUP).textContent).toBe(MARKUP);
    expect(screen.getByRole('link', { name: '<b>Bob</b>' }).getAttribute('href')).toBe('/u/bob-id');
    expect([...container.querySelectorAll('img')].map((img) => img.getAttribute('src'))).toEqual([
      '/api/feed/images/img-1',
    ]);
    expect(container.querySelector('[onerror], a[href^="javascript:"], b')).toBeNull();
  });

  it("shows a reported comment's markup to staff as text, beside a link to the post on our own site", () => {
    const { container } = render(<ReportedWords content={{ postId: 'post-1', id: 'comment-1', text: MARKUP }} />);
    expect(screen.getByText(MARKUP).textContent).toBe(MARKUP);
    expect(screen.getByRole('link', { name: 'Open post' }).getAttribute('href')).toBe('/feed/post/post-1');
    expect(container.querySelector('img, [onerror], a[href^="javascript:"]')).toBeNull();
  });
});
