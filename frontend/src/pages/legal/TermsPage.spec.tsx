import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectEffectiveDateAndContact, expectSections, headTags, renderStaticPage } from './render-static-page';

// spec 2: the sections of /legal/terms-of-use.
const TERMS_SECTIONS = [
  /eligibility/i,
  /account registration/i,
  /use of the platform/i,
  /community guidelines/i,
  /intellectual property/i,
  /disclaimer/i,
  /liability/i,
  /indemnification/i,
  /termination/i,
  /changes/i,
  /contact/i,
];

describe('terms of use', () => {
  it('shows every section spec 2 lists, with the effective date and the support address', async () => {
    const { title } = await renderStaticPage('/legal/terms-of-use');

    expect(title.textContent).toBe('Terms of Use');
    expectSections(TERMS_SECTIONS);
    expectEffectiveDateAndContact();
    expect(screen.getByText(/at least 18 years old/)).toBeDefined();
  });

  it('names itself in the tab and the meta description, without a canonical link', async () => {
    await renderStaticPage('/legal/terms-of-use');

    expect(document.title).toBe('Terms of Use · Serendip');
    expect(headTags().description).toMatch(/rules for using Serendip/);
    expect(headTags().canonical).toBeUndefined();
  });
});

describe('terms of service', () => {
  it('shows the same terms, with a canonical link to the terms of use', async () => {
    const { title } = await renderStaticPage('/legal/terms-of-service');

    expect(title.textContent).toBe('Terms of Use');
    expectSections(TERMS_SECTIONS);
    expectEffectiveDateAndContact();
    expect(headTags().canonical).toBe(`${window.location.origin}/legal/terms-of-use`);
  });

  it('takes its canonical link away when the reader moves on', async () => {
    vi.stubGlobal('scrollTo', vi.fn()); // jsdom has no layout to scroll
    const { router } = await renderStaticPage('/legal/terms-of-service');

    await router.navigate('/legal/privacy-policy');

    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
    expect(headTags().canonical).toBeUndefined();
    expect(document.title).toBe('Privacy Policy · Serendip');
  });
});
