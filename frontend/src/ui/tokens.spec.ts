import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// jsdom lays nothing out, so axe cannot measure contrast here; the colour pairs are checked at the source instead.

type Rgba = readonly [number, number, number, number];

function rootTokens(css: string): Map<string, string> {
  const root = /:root\s*{([^}]*)}/.exec(css)?.[1] ?? '';
  return new Map([...root.matchAll(/(--[\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name!, value!.trim()]));
}

// Read from disk: vitest stubs CSS imports, ?raw included. (A string path: under jsdom, URL is not node's URL.)
const tokensCss = readFileSync(join(dirname(fileURLToPath(import.meta.url)), 'tokens.css'), 'utf8');
const tokens = rootTokens(tokensCss);

function colour(name: string): Rgba {
  const value = tokens.get(name);
  const hex = value && /^#([0-9a-f]{6})$/i.exec(value)?.[1];
  if (hex) return [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16)).concat(1) as unknown as Rgba;
  const rgb = value && /^rgb\((\d+) (\d+) (\d+)(?: \/ ([\d.]+))?\)$/.exec(value);
  if (rgb) return [Number(rgb[1]), Number(rgb[2]), Number(rgb[3]), rgb[4] === undefined ? 1 : Number(rgb[4])];
  throw new Error(`${name} is not a plain colour: ${value}`);
}

function over(top: Rgba, below: Rgba): Rgba {
  const [r, g, b, a] = top;
  return [r * a + below[0] * (1 - a), g * a + below[1] * (1 - a), b * a + below[2] * (1 - a), 1];
}

function luminance([r, g, b]: Rgba): number {
  const linear = (channel: number) => {
    const c = channel / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const SURFACES = ['--bg', '--surface', '--surface-raised'];

describe('design tokens', () => {
  it('keep every name the existing stylesheets use', () => {
    const legacy = [
      '--bg',
      '--surface',
      '--surface-raised',
      '--border',
      '--text',
      '--text-muted',
      '--brand-from',
      '--brand-to',
      '--accent',
      '--accent-strong',
      '--ok',
      '--danger',
      '--pending',
      '--focus',
      '--radius',
      '--radius-pill',
      '--shadow',
      '--font',
      '--page-pad',
      '--bg-glow-1',
      '--bg-glow-2',
    ];
    expect(legacy.filter((name) => !tokens.has(name))).toEqual([]);
  });

  it('have a full type, space and layer scale', () => {
    const scales = [
      ...['xs', 'sm', 'base', 'lg', 'xl', '2xl', '3xl'].map((step) => `--text-${step}`),
      ...Array.from({ length: 10 }, (_, index) => `--space-${index + 1}`),
      ...['raised', 'sticky', 'overlay', 'modal', 'popover', 'tooltip', 'loading'].map((layer) => `--z-${layer}`),
      '--duration-fast',
      '--duration-base',
      '--duration-slow',
    ];
    expect(scales.filter((name) => !tokens.has(name))).toEqual([]);
  });

  it('drop motion durations to zero for reduced motion', () => {
    const reduced = /prefers-reduced-motion: reduce\)\s*{\s*:root\s*{([^}]*)}/.exec(tokensCss)?.[1] ?? '';
    for (const name of ['--duration-fast', '--duration-base', '--duration-slow']) {
      expect(reduced).toContain(`${name}: 0ms`);
    }
  });

  it.each(
    [
      '--text',
      '--text-muted',
      '--text-placeholder',
      '--accent',
      '--accent-strong',
      '--ok',
      '--danger',
      '--danger-text',
      '--pending',
    ].flatMap((text) => SURFACES.map((surface) => [text, surface] as const)),
  )('text %s on %s meets AA (4.5:1)', (text, surface) => {
    expect(contrast(colour(text), colour(surface))).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['--on-brand', '--brand-from'],
    ['--on-brand', '--brand-to'],
    ['--on-brand', '--accent'],
    ['--on-danger', '--danger'],
  ])('text %s on a %s fill meets AA (4.5:1)', (text, fill) => {
    expect(contrast(colour(text), colour(fill))).toBeGreaterThanOrEqual(4.5);
  });

  it.each([
    ['--accent-strong', '--accent-soft'],
    ['--ok', '--ok-soft'],
    ['--danger-text', '--danger-soft'],
    ['--pending', '--pending-soft'],
  ])('badge text %s on its %s tint meets AA on every surface', (text, tint) => {
    for (const surface of SURFACES) {
      expect(contrast(colour(text), over(colour(tint), colour(surface)))).toBeGreaterThanOrEqual(4.5);
    }
  });

  it.each(SURFACES)('the focus ring stands out from %s (3:1, non-text)', (surface) => {
    expect(contrast(colour('--focus'), colour(surface))).toBeGreaterThanOrEqual(3);
  });
});
