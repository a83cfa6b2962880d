import { BrandMark } from './BrandMark';

/** spec 2, global overlays: INITIALIZING by default, VALIDATING while user info loads, R-TOKENS on refresh. */
export type LoadingWord = 'INITIALIZING' | 'VALIDATING' | 'R-TOKENS';

interface LoadingOverlayProps {
  word?: LoadingWord;
}

export function LoadingOverlay({ word = 'INITIALIZING' }: LoadingOverlayProps) {
  return (
    <div className="loading-overlay" role="status" aria-live="polite" aria-busy="true" aria-label="Loading Serendip">
      <BrandMark size={72} className="loading-overlay__mark" />
      <p className="loading-overlay__word">{word}</p>
      <span className="loading-overlay__bar" aria-hidden="true" />
    </div>
  );
}
