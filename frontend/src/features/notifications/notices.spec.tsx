import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { AnnouncementOverlay } from './AnnouncementOverlay';
import { CommentRemovedModal } from './CommentRemovedModal';

describe('forced-open notices (spec 2 "Global overlays")', () => {
  it('shows an announcement until the user confirms it: Escape does not dismiss it', async () => {
    const onAcknowledge = vi.fn();
    render(
      <AnnouncementOverlay
        announcement={{
          title: 'Scheduled maintenance',
          description: 'Video matching pauses for ten minutes tonight.',
          adminAnnouncement: 'Thanks for your patience!',
        }}
        onAcknowledge={onAcknowledge}
      />,
    );

    const dialog = screen.getByRole('alertdialog', { name: 'Scheduled maintenance' });
    expect(dialog.textContent).toContain('Video matching pauses for ten minutes tonight.');
    expect(dialog.textContent).toContain('Thanks for your patience!');
    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeDefined();
    expect(onAcknowledge).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onAcknowledge).toHaveBeenCalledOnce();
  });

  it("says which comment was removed and why, with 'OK' and 'Appeal'", async () => {
    const onOk = vi.fn();
    const onAppeal = vi.fn();
    render(
      <CommentRemovedModal
        comment={{ text: 'you are all idiots', postedAt: '2026-11-20T18:30:00Z' }}
        onOk={onOk}
        onAppeal={onAppeal}
      />,
    );

    const dialog = screen.getByRole('alertdialog', { name: 'Comment Removed' });
    expect(dialog.textContent).toMatch(/violates our policy and community guidelines/);
    expect(screen.getByRole('heading', { name: 'Comment Details' })).toBeDefined();
    expect(screen.getByText('you are all idiots')).toBeDefined();
    expect(screen.getByText('November 20, 2026', { exact: false })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Violations' })).toBeDefined();
    expect(screen.getByText('Hate Speech, Profanity and Inappropriate Language.')).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'Appeal' }));
    expect(onAppeal).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledOnce();
  });
});
