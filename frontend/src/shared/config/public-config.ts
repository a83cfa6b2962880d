import { DEFAULT_PUBLIC_CONFIG, PUBLIC_CONFIG_META, type PublicConfig, publicConfigSchema } from '@serendip/proto';
import { logError } from '../log';

let cached: PublicConfig | undefined;

/**
 * The deployment's public configuration (support address, company, social links, status page), read once from the
 * meta tag the server writes into index.html. A page without it (the Vite dev server, tests) gets the defaults; a
 * broken one is reported in the console and also falls back, so a bad deploy never blanks the app.
 */
export function publicConfig(): PublicConfig {
  cached ??= readPublicConfig(document);
  return cached;
}

export function readPublicConfig(doc: Document): PublicConfig {
  const content = doc.querySelector(`meta[name="${PUBLIC_CONFIG_META}"]`)?.getAttribute('content');
  if (!content) return DEFAULT_PUBLIC_CONFIG;
  try {
    return publicConfigSchema.parse(JSON.parse(content));
  } catch (error) {
    logError('The page carries a broken serendip-config; using the defaults.', error);
    return DEFAULT_PUBLIC_CONFIG;
  }
}
