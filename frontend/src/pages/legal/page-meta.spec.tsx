import { render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { type PageMeta, usePageMeta } from './page-meta';
import { headTags } from './render-static-page';

function Page(meta: PageMeta) {
  usePageMeta(meta);
  return null;
}

describe('usePageMeta', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    document.title = '';
  });

  it('sets title, description and an absolute canonical link, and removes what it added on unmount', () => {
    document.title = 'Serendip';
    const view = render(<Page title="Terms of Use" description="The rules." canonicalPath="/legal/terms-of-use" />);

    expect(document.title).toBe('Terms of Use · Serendip');
    expect(headTags()).toEqual({
      description: 'The rules.',
      canonical: `${window.location.origin}/legal/terms-of-use`,
    });

    view.unmount();

    expect(document.title).toBe('Serendip');
    expect(headTags()).toEqual({ description: undefined, canonical: undefined });
  });

  it("restores index.html's own description and canonical link instead of removing them", () => {
    document.head.innerHTML =
      '<meta name="description" content="Random video chat."><link rel="canonical" href="https://serendip.example/">';
    const view = render(<Page title="Cookie Policy" description="Cookies." canonicalPath="/legal/cookie-policy" />);

    expect(headTags().description).toBe('Cookies.');
    expect(document.head.querySelectorAll('meta[name="description"], link[rel="canonical"]')).toHaveLength(2);

    view.unmount();

    expect(headTags()).toEqual({ description: 'Random video chat.', canonical: 'https://serendip.example/' });
  });

  it('leaves the canonical link alone on a page that has none', () => {
    render(<Page title="Privacy Policy" description="Your data." />);

    expect(headTags().canonical).toBeUndefined();
  });
});
