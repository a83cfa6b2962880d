/**
 * The account settings dialog's tabs (spec 2), also its deep link: `/settings?tab=security`. Kept apart from the
 * dialog so the settings page reads the URL without loading the dialog's chunk.
 */
export const ACCOUNT_TABS = ['general', 'profile', 'security'] as const;

export type AccountTab = (typeof ACCOUNT_TABS)[number];

export const ACCOUNT_TAB_PARAM = 'tab';

export function isAccountTab(value: unknown): value is AccountTab {
  return typeof value === 'string' && (ACCOUNT_TABS as readonly string[]).includes(value);
}
