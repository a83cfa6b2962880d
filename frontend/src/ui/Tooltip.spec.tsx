import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Button } from './Button';
import { Tooltip, TooltipProvider } from './Tooltip';
import './test-polyfills';

function MuteButton() {
  return (
    <TooltipProvider delayDuration={0}>
      <Tooltip content="Mute microphone (M)">
        <Button iconOnly variant="ghost" aria-label="Mute">
          <svg aria-hidden="true" />
        </Button>
      </Tooltip>
    </TooltipProvider>
  );
}

describe('Tooltip', () => {
  it('shows on keyboard focus as the trigger description, and hides on Escape', async () => {
    const user = userEvent.setup();
    render(<MuteButton />);

    await user.tab();

    const tooltip = await screen.findByRole('tooltip');
    expect(tooltip.textContent).toBe('Mute microphone (M)');
    const trigger = screen.getByRole('button', { name: 'Mute' });
    expect(trigger.getAttribute('aria-describedby')).toBe(tooltip.id);

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
    expect(document.activeElement).toBe(trigger);
  });

  it('shows on hover', async () => {
    const user = userEvent.setup();
    render(<MuteButton />);

    await user.hover(screen.getByRole('button', { name: 'Mute' }));

    expect((await screen.findByRole('tooltip')).textContent).toBe('Mute microphone (M)');
  });
});
