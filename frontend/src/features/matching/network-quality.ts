import type { NetworkQuality } from '@serendip/proto';

/** spec 9: from the downlink speed in Mbit/s: under 1 poor, under 5 good, 5 or more excellent; offline; unknown. */
export function networkQuality(online: boolean, downlinkMbps: number | undefined): NetworkQuality {
  if (!online) return 'offline';
  if (downlinkMbps === undefined || Number.isNaN(downlinkMbps)) return 'unknown';
  if (downlinkMbps < 1) return 'poor';
  if (downlinkMbps < 5) return 'good';
  return 'excellent';
}

/** What this browser says of its own connection now. */
export function currentNetworkQuality(): NetworkQuality {
  const connection = (navigator as Navigator & { connection?: { downlink?: number } }).connection;
  return networkQuality(navigator.onLine, connection?.downlink);
}
