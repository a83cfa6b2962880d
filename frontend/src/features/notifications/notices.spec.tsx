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
    const onAppeal = vi.fn(async () => true);
    render(
      <CommentRemovedModal
        comment={{ text: 'you are all idiots', postedAt: '2026-11-20T18:30:00Z', categories: ['Profanity', 'Insult'] }}
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
    expect(screen.getByText('Found in your comment: Profanity, Insult')).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'OK' }));
    expect(onOk).toHaveBeenCalledOnce();
    expect(onAppeal).not.toHaveBeenCalled();
  });

  it("names staff's reason as the reason given, not as something found in the comment", () => {
    render(
      <CommentRemovedModal
        comment={{
          text: 'buy cheap followers at example.com',
          postedAt: '2026-11-20T18:30:00Z',
          categories: ['Spam links'],
          removedBy: 'staff',
        }}
        onOk={vi.fn()}
        onAppeal={vi.fn(async () => true)}
      />,
    );

    expect(screen.getByText('Reason given: Spam links')).toBeDefined();
    expect(screen.queryByText(/Found in your comment/)).toBeNull();
  });

  it('appeals with an explanation: a blank one is refused before anything is sent', async () => {
    const user = userEvent.setup();
    const onOk = vi.fn();
    const onAppeal = vi.fn(async () => true);
    render(
      <CommentRemovedModal
        comment={{ text: 'what the f***', postedAt: '2026-11-20T18:30:00Z', categories: [] }}
        onOk={onOk}
        onAppeal={onAppeal}
      />,
    );
    expect(screen.queryByText(/Found in your comment/)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Appeal' }));
    const box = screen.getByRole('textbox', { name: 'Your appeal' });
    expect(box.getAttribute('placeholder')).toBe('Explain why you believe this comment should be shown again...');
    await user.type(box, '   ');
    await user.click(screen.getByRole('button', { name: 'Submit Appeal' }));
    expect(screen.getByText('Please provide a reason for your appeal.')).toBeDefined();
    expect(onAppeal).not.toHaveBeenCalled();

    // Cancel goes back to the notice with OK; the notice stays until confirmed.
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Appeal' }));
    await user.type(screen.getByRole('textbox', { name: 'Your appeal' }), ' It was a quote from a film. ');
    await user.click(screen.getByRole('button', { name: 'Submit Appeal' }));
    expect(onAppeal).toHaveBeenCalledWith('It was a quote from a film.');
    expect(onOk).not.toHaveBeenCalled();
  });
});
