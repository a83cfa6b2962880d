import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Switch } from './Switch';
import './test-polyfills';

function TwoFactorSetting() {
  const [enabled, setEnabled] = useState(false);
  return (
    <>
      <Switch
        label="Two-factor authentication"
        description="Ask for a code when you sign in."
        checked={enabled}
        onCheckedChange={setEnabled}
      />
      <p>{enabled ? 'Two-factor is on' : 'Two-factor is off'}</p>
    </>
  );
}

function theSwitch(): HTMLElement {
  return screen.getByRole('switch', { name: 'Two-factor authentication' });
}

describe('Switch (spec 2: two-factor toggle)', () => {
  it('is a labelled, described switch that starts off', () => {
    render(<TwoFactorSetting />);

    expect(theSwitch().getAttribute('aria-checked')).toBe('false');
    const description = document.getElementById(theSwitch().getAttribute('aria-describedby') ?? '');
    expect(description?.textContent).toBe('Ask for a code when you sign in.');
  });

  it('toggles on click and reports the new state', async () => {
    const user = userEvent.setup();
    render(<TwoFactorSetting />);

    await user.click(theSwitch());
    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
    expect(screen.getByText('Two-factor is on')).toBeDefined();

    await user.click(theSwitch());
    expect(theSwitch().getAttribute('aria-checked')).toBe('false');
  });

  it('toggles from the keyboard with Space', async () => {
    const user = userEvent.setup();
    render(<TwoFactorSetting />);
    await user.tab();
    expect(document.activeElement).toBe(theSwitch());

    await user.keyboard(' ');

    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
  });

  it('toggles when its label is clicked', async () => {
    const user = userEvent.setup();
    render(<TwoFactorSetting />);

    await user.click(screen.getByText('Two-factor authentication'));

    expect(theSwitch().getAttribute('aria-checked')).toBe('true');
  });

  it('does nothing while disabled', async () => {
    const user = userEvent.setup();
    render(<Switch label="Camera" disabled />);

    await user.click(screen.getByRole('switch', { name: 'Camera' }));

    expect(screen.getByRole('switch', { name: 'Camera' }).getAttribute('aria-checked')).toBe('false');
  });
});
