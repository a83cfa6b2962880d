import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Settings } from 'lucide-react';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from './DropdownMenu';
import './test-polyfills';

function UserMenu({ onLogout = () => {} }: { onLogout?: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="quiet">Account</Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>Hi, Ada</DropdownMenuLabel>
        <DropdownMenuItem>Settings</DropdownMenuItem>
        <DropdownMenuItem>Security Center</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem tone="danger" onSelect={onLogout}>
          Logout
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

async function focusTrigger() {
  const user = userEvent.setup();
  const onLogout = vi.fn();
  render(<UserMenu onLogout={onLogout} />);
  await user.tab();
  const trigger = screen.getByRole('button', { name: 'Account' });
  expect(document.activeElement).toBe(trigger);
  return { user, onLogout, trigger };
}

describe('DropdownMenu (spec 2: user menu)', () => {
  it('opens from the keyboard with Enter and focuses the first item', async () => {
    const { user, trigger } = await focusTrigger();

    await user.keyboard('{Enter}');

    expect(await screen.findByRole('menu')).toBeDefined();
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Settings' })));
  });

  it('opens with ArrowDown, moves with the arrows and picks with Enter', async () => {
    const { user, onLogout } = await focusTrigger();

    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Settings' })));

    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Security Center' }));
    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Logout' }));
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Security Center' }));
    await user.keyboard('{ArrowDown}{Enter}');

    expect(onLogout).toHaveBeenCalledOnce();
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });

  it('closes on Escape and returns focus to the trigger', async () => {
    const { user, trigger } = await focusTrigger();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');

    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it('opens on click and picks an item on click', async () => {
    const user = userEvent.setup();
    const onLogout = vi.fn();
    render(<UserMenu onLogout={onLogout} />);

    await user.click(screen.getByRole('button', { name: 'Account' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));

    expect(onLogout).toHaveBeenCalledOnce();
  });

  it('navigates with a router link item, keeping its icon inside the link', async () => {
    const user = userEvent.setup();
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: (
            <DropdownMenu>
              <DropdownMenuTrigger>Account</DropdownMenuTrigger>
              <DropdownMenuContent>
                <DropdownMenuItem asChild icon={<Settings />}>
                  <Link to="/settings">Settings</Link>
                </DropdownMenuItem>
              </DropdownMenuContent>
            </DropdownMenu>
          ),
        },
        { path: '/settings', element: <h1>Settings page</h1> },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);

    await user.click(screen.getByRole('button', { name: 'Account' }));
    const item = await screen.findByRole('menuitem', { name: 'Settings' });

    expect(item.tagName).toBe('A');
    expect(item.querySelector('.ui-menu__icon svg')).not.toBeNull();
    await user.click(item);
    expect(await screen.findByRole('heading', { name: 'Settings page' })).toBeDefined();
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
