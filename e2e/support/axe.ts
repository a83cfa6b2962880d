import axe from 'axe-core';
import type { Page } from 'playwright-core';

interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * The serious and critical WCAG 2.x A/AA problems axe-core finds on the page as it is now, one line each. axe is put
 * into the page through the DevTools protocol, which the app's CSP (no inline scripts) does not apply to. `within`: a
 * selector to check only that part (an open dialog, whose scrim dims the page behind it).
 */
export async function seriousA11yProblems(page: Page, within?: string): Promise<string[]> {
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async (selector) => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(selector ? { include: [[selector]] } : document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
    });
    return result.violations as unknown as Violation[];
  }, within);
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`);
}
