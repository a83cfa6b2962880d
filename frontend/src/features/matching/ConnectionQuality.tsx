import type { NetworkQuality } from '@serendip/proto';

const QUALITY_LABEL: Record<NetworkQuality, string> = {
  excellent: 'Excellent',
  good: 'Good',
  poor: 'Poor',
  offline: 'Offline',
  unknown: 'Unknown',
};

/** The call's connection quality, labelled on screen ('Connection: Good'): a bare 'Good' meant nothing to people. */
export function ConnectionQuality({ quality }: { quality: NetworkQuality }) {
  return (
    <span className={`match-quality match-quality--${quality}`} role="note" aria-label="Connection quality">
      Connection: {QUALITY_LABEL[quality]}
    </span>
  );
}
