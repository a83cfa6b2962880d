import { useLayoutEffect } from 'react';
import { PRODUCT_NAME } from '../../shared/use-document-title';

export interface PageMeta {
  /** Shown as "Title · Serendip", like useDocumentTitle. */
  title: string;
  /** The page's `<meta name="description">`; index.html's own one comes back when the page goes. */
  description: string;
  /** A path such as '/legal/terms-of-use'; written as an absolute `<link rel="canonical">` on this origin. */
  canonicalPath?: string;
}

/**
 * The head tags a page owns while it is shown: tab title, meta description and, for a page that is a copy of
 * another, the canonical link. Each is put back as it was when the page unmounts, so the next page starts clean.
 * Layout effects, so the head changes in the same commit as the page: nothing sees the new page under the old
 * page's title or canonical link, and the old page's undo runs before the new page's set.
 */
export function usePageMeta({ title, description, canonicalPath }: PageMeta) {
  useLayoutEffect(() => {
    const previous = document.title;
    document.title = `${title} · ${PRODUCT_NAME}`;
    return () => {
      document.title = previous;
    };
  }, [title]);

  useLayoutEffect(() => overrideHeadTag('meta', { name: 'description' }, 'content', description), [description]);

  useLayoutEffect(() => {
    if (!canonicalPath) return undefined;
    const href = new URL(canonicalPath, window.location.origin).href;
    return overrideHeadTag('link', { rel: 'canonical' }, 'href', href);
  }, [canonicalPath]);
}

/** Sets `attribute` on the head tag matching `identity` (made if missing); the returned undo restores it. */
function overrideHeadTag(
  tag: 'meta' | 'link',
  identity: Record<string, string>,
  attribute: string,
  value: string,
): () => void {
  const selector =
    tag +
    Object.entries(identity)
      .map(([key, val]) => `[${key}="${val}"]`)
      .join('');
  const existing = document.head.querySelector(selector);
  const element = existing ?? document.createElement(tag);
  const previous = existing?.getAttribute(attribute) ?? null;
  if (!existing) {
    for (const [key, val] of Object.entries(identity)) element.setAttribute(key, val);
    document.head.append(element);
  }
  element.setAttribute(attribute, value);
  return () => {
    if (!existing) element.remove();
    else if (previous === null) element.removeAttribute(attribute);
    else element.setAttribute(attribute, previous);
  };
}
