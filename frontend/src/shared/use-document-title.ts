import { useLayoutEffect } from 'react';

export const PRODUCT_NAME = 'Serendip';

/** Sets the tab title for the page being shown: "Page · Serendip", or just the product name on home. */
export function useDocumentTitle(page?: string) {
  // A layout effect: the tab names the new page in the same commit that shows it.
  useLayoutEffect(() => {
    document.title = page ? `${page} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
