import { DomainError } from '../../platform/cqrs/decider.js';

/**
 * argon2id takes 19 MiB and a core's worth of time per password: a burst of logins (or of guesses) must not take the
 * machine's memory and CPU. A few run at once, a bounded line waits, and past that the answer is 503 with
 * Retry-After, at once.
 */
export class HashingSlots {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrent: number,
    private readonly maxWaiting: number,
  ) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrent) {
      if (this.waiting.length >= this.maxWaiting) {
        throw new DomainError('busy', 'Too many sign-ins at once; please try again in a moment', {
          kind: 'unavailable',
          retryAfterSeconds: 1,
        });
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next in line; only when nobody waits is it freed.
      if (next) next();
      else this.running--;
    }
  }
}

/** One line per process: every PasswordHasher shares it. */
export const HASHING_SLOTS = new HashingSlots(4, 32);
