import { existsSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type Response } from 'express';
import { API_PREFIX } from '@serendip/proto';

/**
 * Serves the built web client: its files as they are, and index.html for every other non-API path so the
 * client router can show its own pages (and its 404). Unknown /api paths never reach here: Nest answers them
 * with a JSON 404.
 */
export function webClient(distDir: string) {
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

  return (req: Request, res: Response, next: NextFunction) => {
    if (apiPath.test(req.path) || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    assets(req, res, () => {
      if (!existsSync(indexHtml)) {
        res.status(503).type('text/plain').send('The web client is not built yet: run `npm run build`.');
        return;
      }
      res.setHeader('Cache-Control', 'no-cache');
      res.sendFile(indexHtml);
    });
  };
}
