import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  expectEffectiveDateAndContact,
  expectSections,
  headTags,
  renderStaticPage,
  sectionText,
} from './render-static-page';

describe('cookie policy', () => {
  it('covers what spec 2 lists, with the effective date and the support address', async () => {
    const { title } = await renderStaticPage('/legal/cookies');

    expect(title.textContent).toBe('Cookie Policy');
    expectSections([
      /essential cookies/i,
      /analytics cookies/i,
      /preference cookies/i,
      /advertising cookies/i,
      /first-party and third-party/i,
      /consent/i,
      /managing cookies/i,
    ]);
    expectEffectiveDateAndContact();
  });

  it('lists the two sign-in cookies of spec 9 and says plainly that there are no advertising cookies', async () => {
    await renderStaticPage('/legal/cookies');

    const cookies = screen.getByRole('table', { name: 'Essential cookies set by Serendip' });
    expect(within(cookies).getByRole('rowheader', { name: 'accessToken' })).toBeDefined();
    expect(within(cookies).getByRole('rowheader', { name: 'refreshToken' })).toBeDefined();
    expect(sectionText('Advertising cookies')).toMatch(/Serendip uses none/);
  });

  it('points its canonical link to a different path (spec 2)', async () => {
    await renderStaticPage('/legal/cookies');

    expect(document.title).toBe('Cookie Policy · Serendip');
    expect(headTags().description).toMatch(/cookies/);
    expect(headTags().canonical).toBe(`${window.location.origin}/legal/cookie-policy`);
  });

  it('serves the same policy at the canonical path, so the canonical link leads somewhere', async () => {
    const { title } = await renderStaticPage('/legal/cookie-policy');

    expect(title.textContent).toBe('Cookie Policy');
    expect(headTags().canonical).toBeUndefined();
  });
});
