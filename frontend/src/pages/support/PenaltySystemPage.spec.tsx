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
    expect(rows).toEqual([
      'First violationA warning, or a short restriction such as 24 hours.',
      'Second violationA restriction of 3 to 7 days.',
      'Third violationA restriction of about 30 days, or a temporary suspension.',
      'Repeated violationsA permanent ban.',
    ]);
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
    expect(sectionText('Severe violations')).toMatch(/suspended immediately/);
    const appeals = sectionText('Appeals');
    expect(appeals).toMatch(/once per ban/);
    expect(appeals).toMatch(/impartial review/);
    expect(sectionText('Rehabilitation')).toMatch(/not severe/);
    expectEffectiveDateAndContact();
  });

  it('sets its title and description', async () => {
    await renderStaticPage('/support/penalty-system');

    expect(document.title).toBe('Penalty System · Serendip');
    expect(headTags().description).toMatch(/penalty tiers/);
  });
});
