/**
 * Who waits for a slot: `paging` (the next page of a collection, a report's critical path) goes
 * before `other` (`$batch` calls, single reads), which fill the slots pages leave free.
 */
export type SlotPriority = 'paging' | 'other';

/**
 * At most `limit` holders at once; the rest wait, pages first and each class in arrival order.
 * While a collection is being paged (`openChain`), `other` holders leave one slot free: a `$batch`
 * call holds its slot for a whole round trip, so a next page that found every slot taken by them
 * would wait for one to end, a few milliseconds on every page of a long chain. The Graph client
 * takes a slot per attempt, not per request, so a request sleeping through `Retry-After` leaves
 * its slot to others.
 */
export class ConcurrencyLimit {
  private active = 0;
  private activeOther = 0;
  private openChains = 0;
  private readonly waiting: Record<SlotPriority, Array<() => void>> = { paging: [], other: [] };

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>, priority: SlotPriority = 'other'): Promise<T> {
    if (this.canStart(priority)) this.take(priority);
    else await new Promise<void>((resolve) => this.waiting[priority].push(resolve));
    try {
      return await task();
    } finally {
      this.active -= 1;
      if (priority === 'other') this.activeOther -= 1;
      this.startWaiting();
    }
  }

  /** A collection is being paged until the returned close is called: its next page has a slot kept for it. */
  openChain(): () => void {
    this.openChains += 1;
    let closed = false;
    return () => {
      if (closed) return;
      closed = true;
      this.openChains -= 1;
      this.startWaiting();
    };
  }

  private canStart(priority: SlotPriority): boolean {
    if (this.active >= this.limit) return false;
    if (priority === 'paging') return true;
    const kept = this.openChains > 0 && this.limit > 1 ? 1 : 0;
    return this.activeOther < this.limit - kept;
  }

  private take(priority: SlotPriority): void {
    this.active += 1;
    if (priority === 'other') this.activeOther += 1;
  }

  /** Gives free slots to waiters, pages first; each slot is taken before its waiter wakes, so a newcomer cannot overtake. */
  private startWaiting(): void {
    for (const priority of ['paging', 'other'] as const) {
      while (this.waiting[priority].length > 0 && this.canStart(priority)) {
        this.take(priority);
        this.waiting[priority].shift()!();
      }
    }
  }
}
