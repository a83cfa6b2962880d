import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Button, buttonClassName } from './Button';

describe('buttonClassName', () => {
  it('spells the same classes the pages already use', () => {
    expect(buttonClassName()).toBe('button button--primary');
    expect(buttonClassName({ variant: 'quiet', size: 'sm' })).toBe('button button--quiet button--small');
    expect(buttonClassName({ block: true }, 'hero__cta')).toBe('button button--primary button--block hero__cta');
    expect(buttonClassName({ variant: 'ghost', size: 'lg', iconOnly: true })).toBe(
      'button button--ghost button--large button--icon',
    );
  });
});

describe('Button', () => {
  it('is a plain button that does not submit its form unless told to', async () => {
    const user = userEvent.setup();
    const submitted = vi.fn((event: SubmitEvent) => event.preventDefault());
    render(
      <form onSubmit={(event) => submitted(event.nativeEvent as SubmitEvent)}>
        <Button variant="quiet">Back</Button>
        <Button type="submit">Next</Button>
      </form>,
    );

    await user.click(screen.getByRole('button', { name: 'Back' }));
    expect(submitted).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(submitted).toHaveBeenCalledOnce();
  });

  it('while busy is disabled, says so, and ignores clicks', async () => {
    const user = userEvent.setup();
    const onClick = vi.fn();
    render(
      <Button busy onClick={onClick}>
        Saving…
      </Button>,
    );

    const button = screen.getByRole('button', { name: 'Saving…' });
    await user.click(button);

    expect(onClick).not.toHaveBeenCalled();
    expect(button.hasAttribute('disabled')).toBe(true);
    expect(button.getAttribute('aria-busy')).toBe('true');
  });

  it('renders a router Link with the button look when asChild, and navigates', async () => {
    const user = userEvent.setup();
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <Button asChild variant="primary" size="lg">
              <Link to="/video-match">Start Matching</Link>
            </Button>
          ),
        },
        { path: '/video-match', element: <h1>Video match</h1> },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);

    const link = screen.getByRole('link', { name: 'Start Matching' });
    expect(link.className).toBe('button button--primary button--large');
    expect(link.hasAttribute('type')).toBe(false);

    await user.click(link);
    expect(await screen.findByRole('heading', { name: 'Video match' })).toBeDefined();
  });

  it('an icon-only button is named by its aria-label', () => {
    render(
      <Button iconOnly variant="ghost" aria-label="Turn camera off">
        <svg aria-hidden="true" />
      </Button>,
    );

    expect(screen.getByRole('button', { name: 'Turn camera off' }).classList.contains('button--icon')).toBe(true);
  });
});
