import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  expectEffectiveDateAndContact,
  expectSections,
  headTags,
  renderStaticPage,
  sectionText,
} from '../legal/render-static-page';

describe('penalty system', () => {
  it('lays out the tiers of spec 9 in a table', async () => {
    await renderStaticPage('/support/penalty-system');

    const table = screen.getByRole('table', { name: /penalties for violations counted over 6 months/i });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent);
    // As the moderators' tool suggests them (backend penalty-policy.ts).
    expect(rows).toEqual([
      'First violationA warning (minor), or a restriction of 24 hours (moderate).',
      'Second violationA restriction of 3 days (minor) or 7 days (moderate).',
      'Third violationA restriction of 30 days.',
      'Fourth and later violationsA permanent ban.',
    ]);
    expect(sectionText('How the penalty system works')).toMatch(/last 6 months \(182 days\)/);
  });

  it('explains levels, severe cases, appeals and rehabilitation', async () => {
    const { title } = await renderStaticPage('/support/penalty-system');

    expect(title.textContent).toBe('Penalty System');
    expectSections([/violation levels/i, /penalty tiers/i, /severe violations/i, /appeals/i, /rehabilitation/i]);
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Minor',
      'Moderate',
      'Severe',
    ]);
    expect(sectionText('Severe violations')).toMatch(/suspended immediately for 30 days, or banned permanently if/);
    const restricted = sectionText('When your account is restricted');
    expect(restricted).toMatch(/Account Restricted screen/);
    expect(restricted).toMatch(/countdown that runs by the second, or “Permanent”/);
    expect(restricted).toMatch(/Ban History .* stays open to you while you are restricted/);
    const appeals = sectionText('Appeals');
    expect(appeals).toMatch(/Appeal Decision/);
    expect(appeals).toMatch(/once per ban/);
    expect(appeals).toMatch(/impartial review/);
    expect(appeals).toMatch(
      /approved, the restriction is lifted at once and the violation is removed from your record/,
    );
    expect(sectionText('Rehabilitation')).toMatch(/not severe/);
    expectEffectiveDateAndContact();
  });

  it('sets its title and description', async () => {
    await renderStaticPage('/support/penalty-system');

    expect(document.title).toBe('Penalty System · Serendip');
    expect(headTags().description).toMatch(/penalty tiers/);
  });
});
