import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isAllowedOrigin } from '../realtime/socket-adapter.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery (DESIGN.md "Conventions": every request is checked before it is read): a request that
 * changes something is refused (403) when a browser says it comes from another site, by its Origin or, without one,
 * by Sec-Fetch-Site. The cookies are SameSite=Lax, which still lets a cross-site top-level form POST through on some
 * browsers; this closes it. Clients that are not browsers send neither header and are judged by their session alone.
 */
export function sameOriginWrites(publicUrl: string): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const site = req.headers['sec-fetch-site'];
    const crossSite = req.headers.origin ? !isAllowedOrigin(req, publicUrl) : site === 'cross-site';
    if (!crossSite) return next();
    res.status(403).json({ statusCode: 403, message: 'Cross-site requests are not accepted', error: 'Forbidden' });
  };
}
