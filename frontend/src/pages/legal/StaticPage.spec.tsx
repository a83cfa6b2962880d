import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import axe from 'axe-core';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { expectEffectiveDateAndContact, renderStaticPage } from './render-static-page';
import { STATIC_PAGE_PATHS } from './static-pages';
import { staticRoutes } from './static-routes';

const PATHS = Object.values(STATIC_PAGE_PATHS);

describe('static pages', () => {
  it('has a route for each path, relative to the app shell', () => {
    expect(staticRoutes.map((route) => route.path)).toEqual(PATHS.map((path) => path.slice(1)));
  });

  it.each(PATHS)('%s has one h1, ordered headings and contents links that land on its sections', async (path) => {
    const { container } = await renderStaticPage(path);

    const levels = [...container.querySelectorAll('h1, h2, h3, h4, h5, h6')].map((h) => Number(h.tagName[1]));
    expect(levels.filter((level) => level === 1)).toHaveLength(1);
    expect(levels[0]).toBe(1);
    const steps = levels.slice(1).map((level, i) => level - (levels[i] ?? 1));
    expect(Math.max(...steps), 'no heading level is skipped').toBeLessThanOrEqual(1);

    const contents = screen.getByRole('navigation', { name: 'On this page' });
    const anchors = [...contents.querySelectorAll('a')];
    expect(anchors.length).toBe(container.querySelectorAll('section > h2').length);
    for (const anchor of anchors) {
      const target = document.getElementById(anchor.getAttribute('href')!.slice(1));
      expect(target?.tagName).toBe('SECTION');
      expect(target?.querySelector('h2')?.textContent).toBe(anchor.textContent);
    }
  });

  it.each(PATHS)('%s passes the axe accessibility rules that jsdom can check', async (path) => {
    const { container } = await renderStaticPage(path);

    // jsdom does no layout, so contrast is left to the browser tests.
    const results = await axe.run(container, { rules: { 'color-contrast': { enabled: false } } });
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(', ')}`)).toEqual([]);
  });

  it('links to the other static pages through the router', async () => {
    const user = userEvent.setup();
    const scrollTo = vi.fn();
    vi.stubGlobal('scrollTo', scrollTo);
    const { router } = await renderStaticPage('/legal/terms-of-use');

    const related = screen.getByRole('navigation', { name: 'Related pages' });
    expect(related.textContent).not.toContain('Terms of Use');
    await user.click(within(related).getByRole('link', { name: 'Penalty System' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Penalty System' })).toBeDefined();
    expect(router.state.location.pathname).toBe('/support/penalty-system');
    // The links sit at the bottom of the page; the next page starts at its top.
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('scrolls to the section a link from elsewhere names, once the page has loaded', async () => {
    const scrolled: Element[] = [];
    // jsdom has no layout, hence no scrollIntoView.
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    try {
      await renderStaticPage('/legal/cookies#consent');

      // The scroll is an effect after the page renders: on a busy machine it comes a moment after the heading.
      await waitFor(() => expect(scrolled.map((element) => element.id)).toEqual(['consent']));
    } finally {
      delete (Element.prototype as Partial<Element>).scrollIntoView;
    }
  });

  it('shows the surrounding shell while the first page a visitor opens is still loading', async () => {
    const router = createMemoryRouter(
      [
        {
          element: (
            <div>
              <p>Shell header</p>
              <Outlet />
            </div>
          ),
          children: staticRoutes,
        },
      ],
      { initialEntries: ['/legal/privacy-policy'] },
    );
    render(<RouterProvider router={router} />);

    expect(screen.getByText('Shell header')).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('Loading page…');
    expect(await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeDefined();
  });
});

describe('static pages on a configured deployment', () => {
  afterEach(() => {
    document.head.querySelector('meta[name="serendip-config"]')?.remove();
  });

  it("show the deployment's support address and company", async () => {
    const meta = document.createElement('meta');
    meta.name = 'serendip-config';
    meta.content = JSON.stringify({ supportEmail: 'help@x.example', companyName: 'X Labs', socialLinks: {} });
    document.head.append(meta);
    // publicConfig() reads the tag once per module instance; a fresh module graph reads this one.
    vi.resetModules();
    const fresh = await import('./static-routes');

    await renderStaticPage('/legal/privacy-policy', fresh.staticRoutes);

    expectEffectiveDateAndContact('help@x.example');
    expect(screen.queryByText('support@serendip.local')).toBeNull();
    expect(screen.getByText(/X Labs is the controller/)).toBeDefined();
  });
});
