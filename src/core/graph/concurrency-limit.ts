/**
 * Who waits for a slot: `paging` (the next page of a collection, a report's critical path) goes
 * before `other` (`$batch` calls, single reads), which fill the slots pages leave free.
 */
export type SlotPriority = 'paging' | 'other';

/**
 * At most `limit` holders at once; the rest wait, pages first and each class in arrival order.
 * The Graph client takes a slot per attempt, not per request, so a request sleeping through
 * `Retry-After` leaves its slot to others.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Record<SlotPriority, Array<() => void>> = { paging: [], other: [] };

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, priority: SlotPriority = 'other'): Promise<T> {
    if (this.active >= this.limit) {
      await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    } else {
      this.active += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.paging.shift() ?? this.waiting.other.shift();
      // Hand the slot straight to the next waiter so `active` never dips and lets a newcomer overtake.
      if (next) next();
      else this.active -= 1;
    }
  }
}
