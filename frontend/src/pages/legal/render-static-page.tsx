import { DEFAULT_PUBLIC_CONFIG } from '@serendip/proto';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';
import { expect } from 'vitest';
import { staticRoutes } from './static-routes';

/** A static page at `path`, on its own lazy routes, once its title is on screen. */
export async function renderStaticPage(path: string, routes: RouteObject[] = staticRoutes) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  const title = await screen.findByRole('heading', { level: 1 });
  return { ...view, router, title };
}

/** The `content` of the page's meta description, and the href of its canonical link (absent when none). */
export function headTags() {
  return {
    description: document.head.querySelector('meta[name="description"]')?.getAttribute('content') ?? undefined,
    canonical: document.head.querySelector('link[rel="canonical"]')?.getAttribute('href') ?? undefined,
  };
}

/** Every regex matches exactly one of the page's section headings (h2). */
export function expectSections(expected: readonly RegExp[]) {
  const headings = screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent ?? '');
  for (const name of expected)
    expect(
      headings.filter((heading) => name.test(heading)),
      String(name),
    ).toHaveLength(1);
}

/** The text of the section whose h2 reads `title` (sections are regions named by their heading). */
export function sectionText(title: string): string {
  const heading = screen.getAllByRole('heading', { level: 2 }).find((h) => h.textContent === title);
  const section = heading?.closest('section');
  expect(section?.getAttribute('aria-labelledby')).toBe(heading?.id);
  return section?.textContent ?? '';
}

/** spec 1: the effective date 11/03/2025, machine-readable too, and the support address as a mailto link. */
export function expectEffectiveDateAndContact(supportEmail = DEFAULT_PUBLIC_CONFIG.supportEmail) {
  const date = screen.getByText('11/03/2025');
  expect(date.tagName).toBe('TIME');
  expect(date.getAttribute('datetime')).toBe('2025-11-03');
  const contacts = screen.getAllByRole('link', { name: supportEmail });
  for (const link of contacts) expect(link.getAttribute('href')).toBe(`mailto:${supportEmail}`);
}
