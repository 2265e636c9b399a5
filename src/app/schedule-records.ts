import { documentPath, readDocumentAs } from '../store/state-store.js';
import type { StateStore } from '../store/state-store.js';
import { emptyScheduleBook, isScheduleBook } from '../core/schedule/post-schedule.js';
import type { ScheduleBook } from '../core/schedule/post-schedule.js';

const DOCUMENT = 'schedules';

/**
 * The channels' posting schedules in the state store (docs/architecture.md, "Scheduled posts"),
 * shared by every instance: read fresh each time (a small document, read at each tick and for each
 * due schedule again under its lock), changed
 * under the store's lock so that a schedule set on one instance and a run recorded on another
 * both count.
 */
export class ScheduleRecords {
  constructor(private readonly store: StateStore) {}

  /** The book; a torn or foreign one is a `StateStoreError`, never an empty book that would drop every schedule. */
  read(): Promise<ScheduleBook> {
    return readDocumentAs(
      this.store,
      DOCUMENT,
      isScheduleBook,
      emptyScheduleBook,
      `The posting schedules in the state store are not readable; move ${documentPath(this.store, DOCUMENT)} aside to start afresh.`,
    );
  }

  /**
   * Changes the book under its lock: `change` gets the book as stored and answers the new one (or
   * null to leave it) and a value for the caller; `busy` when another change held the lock too long.
   */
  async change<T>(change: (book: ScheduleBook) => { book: ScheduleBook | null; value: T }): Promise<{ ok: true; value: T } | { ok: false; reason: 'busy' }> {
    return this.store.withLock(
      `document:${DOCUMENT}`,
      async () => {
        const { book, value } = change(await this.read());
        if (book) await this.store.writeDocument(DOCUMENT, JSON.stringify(book));
        return value;
      },
      { waitMs: 10_000 },
    );
  }
}
