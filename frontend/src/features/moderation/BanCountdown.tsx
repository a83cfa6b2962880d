import { useEffect, useState } from 'react';
import { formatTimeLeft, timeLeft } from './ban-display';
import { BANNED_SCREEN_TEXTS } from './moderation-messages';

/** spec 9: the countdown refreshes every second. */
export const COUNTDOWN_TICK_MS = 1_000;

/**
 * spec 2: days, hours, minutes and seconds to the expiry, 'Expired' once past (at the first tick from the expiry on).
 * `onExpired` runs once when it gets there (or at once for a ban already past its expiry).
 */
export function BanCountdown({ expiryDate, onExpired }: { expiryDate: string; onExpired: () => void }) {
  const [now, setNow] = useState(() => Date.now());
  const left = timeLeft(expiryDate, now);
  const expired = left === null;

  useEffect(() => {
    if (expired) return;
    const timer = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    return () => clearInterval(timer);
  }, [expired]);

  useEffect(() => {
    if (expired) onExpired();
  }, [expired, onExpired]);

  // role="timer" is not announced on every tick; the text is read when the user reaches it.
  return (
    <span role="timer" className="banned-countdown" data-expired={expired || undefined}>
      {left ? formatTimeLeft(left) : BANNED_SCREEN_TEXTS.expired}
    </span>
  );
}
