/** Exponential backoff with jitter: attempt 0 waits about `baseMs`, each next one twice as long, up to `capMs`. */
export function backoffDelay(attempt: number, baseMs = 100, capMs = 5_000): number {
  const exact = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 30));
  // Jitter keeps many nodes that lost the same server from retrying in lockstep.
  return Math.round(exact * (0.8 + Math.random() * 0.2));
}

/** Waits `ms`, or less if the signal aborts first (never rejects). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Stops waiting for `work` when the signal aborts (rejecting); `work` itself runs on, its failure ignored. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  work.catch(() => undefined);
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('stopped'));
    const onAbort = () => reject(new Error('stopped'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
