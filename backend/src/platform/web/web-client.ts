import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { API_PREFIX, PUBLIC_CONFIG_META, type PublicConfig } from '@serendip/proto';

/**
 * Serves the built web client: its files as they are, and index.html for every other non-API path so the
 * client router can show its own pages (and its 404). Unknown /api paths never reach here: Nest answers them
 * with a JSON 404. index.html carries the deployment's public configuration in a meta tag, so the client
 * knows the support address and links from its first paint without an extra call (and without an inline script,
 * which the CSP forbids).
 */
export function webClient(distDir: string, publicConfig: PublicConfig) {
  const indexHtml = path.join(distDir, 'index.html');
  const assets = express.static(distDir, {
    index: false,
    // Vite fingerprints everything under assets/, so those may be cached for good; index.html never.
    setHeaders: (res, file) => {
      if (file.includes(`${path.sep}assets${path.sep}`))
        res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    },
  });
  const apiPath = new RegExp(`^/(${API_PREFIX}|socket\\.io)(/|$)`);
  const page = new IndexPage(indexHtml, publicConfig);

  return (req: Request, res: Response, next: NextFunction) => {
    if (apiPath.test(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    assets(req, res, () => {
      if (!existsSync(indexHtml)) {
        res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build`.');
        return;
      }
      page.html().then(
        (html) => res.setHeader('Cache-Control', 'no-cache').type('html').send(html),
        (error: unknown) => next(error),
      );
    });
  };
}

/** index.html with the config tag, read again only when a new build replaced the file. */
class IndexPage {
  private cached?: { mtimeMs: number; html: string };
  private readonly tag: string;

  constructor(
    private readonly file: string,
    config: PublicConfig,
  ) {
    this.tag = `<meta name="${PUBLIC_CONFIG_META}" content="${escapeAttribute(JSON.stringify(config))}" />`;
  }

  async html(): Promise<string> {
    const { mtimeMs } = await stat(this.file);
    if (this.cached?.mtimeMs !== mtimeMs) {
      const source = await readFile(this.file, 'utf8');
      const html = source.includes('</head>') ? source.replace('</head>', `${this.tag}</head>`) : this.tag + source;
      this.cached = { mtimeMs, html };
    }
    return this.cached.html;
  }
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
