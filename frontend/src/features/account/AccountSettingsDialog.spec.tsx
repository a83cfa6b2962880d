import { screen, within } from '@testing-library/react';
import axe from 'axe-core';
import { afterEach, describe, expect, it } from 'vitest';
import { resetBrowser } from '../auth/auth-test-support';
import { aSession, findSettingsDialog, IPHONE_AGENT, renderSignedIn } from './account-test-support';

/** WCAG A and AA failures inside the dialog; contrast is left to tokens.spec.ts because jsdom has no layout. */
async function violations(dialog: HTMLElement): Promise<string[]> {
  const result = await axe.run(dialog, {
    runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
    rules: { 'color-contrast': { enabled: false } },
  });
  return result.violations.map(
    (rule) => `${rule.impact}: ${rule.id} (${rule.nodes.map((node) => node.target).join(', ')})`,
  );
}

describe('account settings dialog accessibility (axe-core, WCAG 2.2 A/AA)', () => {
  afterEach(resetBrowser);

  it('finds nothing wrong with the General tab', async () => {
    renderSignedIn('/settings?tab=general');
    const dialog = await findSettingsDialog();

    expect(await violations(dialog)).toEqual([]);
  });

  it('finds nothing wrong with the Security tab and its session list', async () => {
    renderSignedIn('/settings?tab=security', {
      sessions: [aSession(), aSession({ _id: 'session-phone', userAgent: IPHONE_AGENT, isCurrent: false })],
    });
    const dialog = await findSettingsDialog();
    await within(dialog).findByRole('listitem', { name: 'Mobile Safari 17 on iOS' });

    expect(await violations(dialog)).toEqual([]);
  });

  it('finds nothing wrong with the Profile tab', async () => {
    renderSignedIn('/settings?tab=profile');
    const dialog = await findSettingsDialog();
    await screen.findByRole('heading', { name: 'Profile picture' });

    expect(await violations(dialog)).toEqual([]);
  });
});
