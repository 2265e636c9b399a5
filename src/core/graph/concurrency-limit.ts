/**
 * At most `limit` holders at once; the rest wait in arrival order. The Graph client takes a slot
 * per attempt, not per request, so a request sleeping through `Retry-After` leaves its slot to
 * others.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      // Hand the slot straight to the next waiter so `active` never dips and lets a newcomer overtake.
      if (next) next();
      else this.active -= 1;
    }
  }
}
