import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './Button';
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from './Dialog';
import './test-polyfills';

function AccountSettings({ dismissible }: { dismissible?: boolean }) {
  return (
    <>
      <p>Page behind the dialog</p>
      <Dialog>
        <DialogTrigger asChild>
          <Button>Settings</Button>
        </DialogTrigger>
        <DialogContent
          title="Account Settings"
          description="Change your e-mail and password."
          closeLabel="Close settings"
          dismissible={dismissible}
        >
          <label>
            E-mail <input />
          </label>
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="quiet">Cancel</Button>
            </DialogClose>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </>
  );
}

async function openSettings() {
  const user = userEvent.setup();
  render(<AccountSettings />);
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const dialog = await screen.findByRole('dialog', { name: 'Account Settings' });
  return { user, dialog };
}

function overlay(): HTMLElement {
  const element = document.querySelector<HTMLElement>('.ui-dialog__overlay');
  if (!element) throw new Error('no dialog overlay is showing');
  return element;
}

/** Plays the browser: focusing the field scrolls the overlay to it, as a radix tab handing focus on does. */
function ScrollingField() {
  return <input aria-label="Nickname" onFocus={() => (overlay().scrollTop = 480)} />;
}

describe('Dialog (spec 9: on a phone the sheet opens at its top, title in view)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('focuses its first control without scrolling to it', async () => {
    const focus = vi.spyOn(HTMLElement.prototype, 'focus');
    const { dialog } = await openSettings();

    const field = screen.getByRole('textbox', { name: 'E-mail' });
    expect(document.activeElement).toBe(field);
    expect(dialog.contains(field)).toBe(true);
    const insideCalls = focus.mock.calls.filter((_, call) => dialog.contains(focus.mock.contexts[call] as Node));
    expect(insideCalls).toEqual([[{ preventScroll: true }]]);
  });

  it('puts the scroll back at the top when focusing its first control scrolled anyway', async () => {
    const user = userEvent.setup();
    render(
      <Dialog>
        <DialogTrigger asChild>
          <Button>Profile</Button>
        </DialogTrigger>
        <DialogContent title="Profile">
          <ScrollingField />
        </DialogContent>
      </Dialog>,
    );
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    await screen.findByRole('dialog', { name: 'Profile' });

    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Nickname' }));
    expect(overlay().scrollTop).toBe(0);
  });

  it('focuses the dialog itself when it has nothing else to focus', async () => {
    render(
      <Dialog open>
        <DialogContent title="Comment Removed" dismissible={false}>
          <p>A moderator removed your comment.</p>
        </DialogContent>
      </Dialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Comment Removed' });

    expect(document.activeElement).toBe(dialog);
  });

  it('leaves focus to a caller that places it itself', async () => {
    const user = userEvent.setup();
    render(
      <Dialog>
        <DialogTrigger asChild>
          <Button>Profile</Button>
        </DialogTrigger>
        <DialogContent
          title="Profile"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            screen.getByRole('button', { name: 'Done' }).focus();
          }}
        >
          <input aria-label="Nickname" />
          <DialogClose asChild>
            <Button>Done</Button>
          </DialogClose>
        </DialogContent>
      </Dialog>,
    );
    await user.click(screen.getByRole('button', { name: 'Profile' }));
    await screen.findByRole('dialog', { name: 'Profile' });

    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Done' }));
  });
});

describe('Dialog (spec 2: account settings closes on outside click, Escape or the close button)', () => {
  it('opens as a named, described dialog with focus inside it', async () => {
    const { dialog } = await openSettings();

    expect(document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'Change your e-mail and password.',
    );
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Escape and gives focus back to the button that opened it', async () => {
    const { user } = await openSettings();

    await user.keyboard('{Escape}');

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Settings' }));
  });

  it('closes on a click outside it', async () => {
    const { user } = await openSettings();

    await user.click(overlay());

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('stays open on a click inside it', async () => {
    const { user, dialog } = await openSettings();

    await user.click(screen.getByRole('textbox', { name: 'E-mail' }));

    expect(dialog.isConnected).toBe(true);
  });

  it('closes with its labelled close button', async () => {
    const { user } = await openSettings();

    await user.click(screen.getByRole('button', { name: 'Close settings' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes with a Cancel button of its own', async () => {
    const { user } = await openSettings();

    await user.click(screen.getByRole('button', { name: 'Cancel' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('locks page scroll while open and releases it on close', async () => {
    const { user } = await openSettings();

    expect(getComputedStyle(document.body).overflow).toBe('hidden');
    expect(document.body.hasAttribute('data-scroll-locked')).toBe(true);

    await user.keyboard('{Escape}');

    await waitFor(() => expect(document.body.hasAttribute('data-scroll-locked')).toBe(false));
    expect(getComputedStyle(document.body).overflow).not.toBe('hidden');
  });

  it('hides the page behind it from screen readers while open', async () => {
    await openSettings();

    expect(screen.queryByText('Page behind the dialog')).not.toBeNull();
    expect(screen.getByText('Page behind the dialog').closest('[aria-hidden="true"]')).not.toBeNull();
  });

  it('when not dismissible, ignores Escape and outside clicks and has no close button', async () => {
    const user = userEvent.setup();
    render(<AccountSettings dismissible={false} />);
    await user.click(screen.getByRole('button', { name: 'Settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'Account Settings' });

    await user.keyboard('{Escape}');
    await user.click(overlay());

    expect(dialog.isConnected).toBe(true);
    expect(screen.queryByRole('button', { name: 'Close settings' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
