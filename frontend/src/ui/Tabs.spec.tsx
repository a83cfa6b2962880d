import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs, TabsContent, TabsList, TabsTrigger } from './Tabs';
import './test-polyfills';

function SettingsTabs() {
  return (
    <Tabs defaultValue="general">
      <TabsList aria-label="Settings sections">
        <TabsTrigger value="general">General</TabsTrigger>
        <TabsTrigger value="profile">Profile</TabsTrigger>
        <TabsTrigger value="security">Security</TabsTrigger>
      </TabsList>
      <TabsContent value="general">Account Settings</TabsContent>
      <TabsContent value="profile">Profile Information</TabsContent>
      <TabsContent value="security">Security Settings</TabsContent>
    </Tabs>
  );
}

function shownPanel(): string | null {
  return screen.getByRole('tabpanel').textContent;
}

describe('Tabs (spec 2: the account settings dialog has three tabs)', () => {
  it('shows the first tab panel, labelled by its tab', () => {
    render(<SettingsTabs />);

    expect(screen.getByRole('tab', { name: 'General', selected: true })).toBeDefined();
    expect(screen.getByRole('tabpanel', { name: 'General' }).textContent).toBe('Account Settings');
  });

  it('moves between tabs with the arrow keys, wrapping at the ends', async () => {
    const user = userEvent.setup();
    render(<SettingsTabs />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'General' }));

    await user.keyboard('{ArrowRight}');
    expect(screen.getByRole('tab', { name: 'Profile', selected: true })).toBe(document.activeElement);
    expect(shownPanel()).toBe('Profile Information');

    await user.keyboard('{ArrowRight}');
    expect(shownPanel()).toBe('Security Settings');

    await user.keyboard('{ArrowRight}');
    expect(shownPanel()).toBe('Account Settings');

    await user.keyboard('{ArrowLeft}');
    expect(shownPanel()).toBe('Security Settings');
  });

  it('leaves the tab list with Tab, into the panel', async () => {
    const user = userEvent.setup();
    render(<SettingsTabs />);
    await user.tab();

    await user.tab();

    expect(document.activeElement).toBe(screen.getByRole('tabpanel'));
  });

  it('switches on click', async () => {
    const user = userEvent.setup();
    render(<SettingsTabs />);

    await user.click(screen.getByRole('tab', { name: 'Security' }));

    expect(shownPanel()).toBe('Security Settings');
  });
});
