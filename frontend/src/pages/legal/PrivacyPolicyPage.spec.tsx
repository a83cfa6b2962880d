import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  expectEffectiveDateAndContact,
  expectSections,
  headTags,
  renderStaticPage,
  sectionText,
} from './render-static-page';

describe('privacy policy', () => {
  it('covers what spec 2 lists, with the effective date and the support address', async () => {
    const { title } = await renderStaticPage('/legal/privacy-policy');

    expect(title.textContent).toBe('Privacy Policy');
    expectSections([
      /information we collect/i,
      /how we collect/i,
      /how we use/i,
      /how we share/i,
      /how long we keep/i,
      /your rights/i,
      /security/i,
      /children under 18/i,
      /changes/i,
      /contact/i,
    ]);
    expectEffectiveDateAndContact();
  });

  it('names the rights of access, correction, deletion and objection', async () => {
    await renderStaticPage('/legal/privacy-policy');

    const rights = sectionText('Your rights');
    for (const right of ['Access', 'Correction', 'Deletion', 'Objection']) expect(rights).toContain(right);
  });

  it('says that deleting an account destroys the key that encrypts its data', async () => {
    await renderStaticPage('/legal/privacy-policy');

    expect(screen.getByText(/destroy that key/)).toBeDefined();
  });

  it('sets its title and description, and no canonical link', async () => {
    await renderStaticPage('/legal/privacy-policy');

    expect(document.title).toBe('Privacy Policy · Serendip');
    expect(headTags().description).toMatch(/personal data/);
    expect(headTags().canonical).toBeUndefined();
  });
});
