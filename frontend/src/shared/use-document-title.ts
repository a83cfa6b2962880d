import { useEffect } from 'react';

export const PRODUCT_NAME = 'Serendip';

/** Sets the tab title for the page being shown: "Page · Serendip", or just the product name on home. */
export function useDocumentTitle(page?: string) {
  useEffect(() => {
    document.title = page ? `${page} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [page]);
}
