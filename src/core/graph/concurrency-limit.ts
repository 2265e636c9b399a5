/** `urgent` holders go before `normal` ones: see the Graph client for which requests are which. */
export type SlotPriority = 'urgent' | 'normal';

/**
 * At most `limit` holders at once; the rest wait, urgent ones first and each class in arrival
 * order. The Graph client takes a slot per attempt, not per request, so a request sleeping through
 * `Retry-After` leaves its slot to others.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Record<SlotPriority, Array<() => void>> = { urgent: [], normal: [] };

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, priority: SlotPriority = 'normal'): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.urgent.shift() ?? this.waiting.normal.shift();
      // Hand the slot straight to the next waiter so `active` never dips and lets a newcomer overtake.
      if (next) next();
      else this.active -= 1;
    }
  }
}
