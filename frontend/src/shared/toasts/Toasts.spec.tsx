import { act, render, screen, waitFor } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notify } from './notify';
import { Toasts } from './Toasts';

function toaster(): HTMLElement {
  const list = document.querySelector<HTMLElement>('[data-sonner-toaster]');
  if (!list) throw new Error('no toast is showing');
  return list;
}

describe('Toasts', () => {
  // sonner keeps its toasts in a module-wide store: leave nothing up for the next test.
  afterEach(() => {
    act(() => {
      toast.dismiss();
    });
  });

  it('shows the text of notify.error', async () => {
    render(<Toasts />);

    act(() => notify.error('Unauthorized, Please Log In.'));

    expect(await screen.findByText('Unauthorized, Please Log In.')).toBeDefined();
    expect(screen.getByText('Unauthorized, Please Log In.').closest('[data-type]')?.getAttribute('data-type')).toBe(
      'error',
    );
  });

  it('shows the text of notify.success', async () => {
    render(<Toasts />);

    act(() => notify.success('Appeal submitted successfully.'));

    const text = await screen.findByText('Appeal submitted successfully.');
    expect(text.closest('[data-type]')?.getAttribute('data-type')).toBe('success');
  });

  it('closes a toast after 4000 ms, and the same text can then come back', async () => {
    vi.useFakeTimers();
    try {
      render(<Toasts />);
      act(() => notify.error('Failed to submit appeal.'));
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(screen.getByText('Failed to submit appeal.')).toBeDefined();

      await act(() => vi.advanceTimersByTimeAsync(3800));
      expect(screen.queryByText('Failed to submit appeal.')).not.toBeNull();

      await act(() => vi.advanceTimersByTimeAsync(600));
      expect(screen.queryByText('Failed to submit appeal.')).toBeNull();

      act(() => notify.error('Failed to submit appeal.'));
      await act(() => vi.advanceTimersByTimeAsync(100));
      expect(screen.getByText('Failed to submit appeal.')).toBeDefined();
    } finally {
      vi.useRealTimers();
    }
  });

  it('uses the spec 9 layout on the dark theme', async () => {
    render(<Toasts />);

    act(() => notify.error('Unauthorized, 404'));
    await screen.findByText('Unauthorized, 404');

    expect(toaster().getAttribute('data-sonner-theme')).toBe('dark');
    expect(toaster().style.getPropertyValue('--width')).toBe('356px');
    expect(toaster().style.getPropertyValue('--gap')).toBe('14px');
  });

  it('keeps at most three toasts visible', async () => {
    render(<Toasts />);

    act(() => {
      for (const text of ['first', 'second', 'third', 'fourth']) notify.error(text);
    });
    await screen.findByText('fourth');

    await waitFor(() => expect(toaster().querySelectorAll('[data-sonner-toast]')).toHaveLength(4));
    const visible = [...toaster().querySelectorAll('[data-sonner-toast][data-visible="true"]')];
    expect(visible.map((item) => item.textContent)).toEqual(['fourth', 'third', 'second']);
  });

  it('shows the same message once while it is up', async () => {
    render(<Toasts />);

    act(() => {
      notify.error('Session Expired, Please Log In.');
      notify.error('Session Expired, Please Log In.');
    });

    await screen.findByText('Session Expired, Please Log In.');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getAllByText('Session Expired, Please Log In.')).toHaveLength(1);
  });
});
