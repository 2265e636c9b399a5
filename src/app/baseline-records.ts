/**
 * The approved baseline (report 8) kept in the state store, shared by every instance: read through
 * a short cache, changed under the store's lock so that two approvals at once on two instances both
 * count, each approval and withdrawal audited in the book (docs/contract.md, "The approved baseline").
 * On the demo tenant, a store that keeps no baseline yet starts from the demo's (baseline-drift/demo.ts).
 */

import { documentPath, readDocumentAs } from '../store/state-store.js';
import type { StateStore } from '../store/state-store.js';
import { applyBaselineRequest, emptyBaselineBook, isBaselineBook } from '../core/reports/baseline-drift/baseline-book.js';
import type { BaselineBook, BaselineOutcome, BaselineRequest } from '../core/reports/baseline-drift/baseline-book.js';
import type { CurrentPolicy } from '../core/reports/baseline-drift/records.js';
import type { ApprovedBaselineSource } from '../core/reports/report-model.js';

const DOCUMENT = 'approved-baseline';
/** Other instances' approvals show within this long; this instance's own at once. */
const DEFAULT_MAX_AGE_MS = 10_000;

export interface BaselineRecordsOptions {
  now?: () => Date;
  maxAgeMs?: number;
  /** The baseline a store that keeps none starts from (the demo's), made from the policies as they are now; none by default. */
  seed?: (current: ReadonlyMap<string, CurrentPolicy>, now: Date) => BaselineBook | null;
}

export class BaselineRecords implements ApprovedBaselineSource {
  private cached: { book: BaselineBook; at: number } | null = null;
  private readonly now: () => Date;
  private readonly maxAgeMs: number;

  constructor(
    private readonly store: StateStore,
    private readonly options: BaselineRecordsOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  }

  /** The book; a torn or foreign one is a `StateStoreError`, never an empty book that would hide every drift. */
  async read(current?: ReadonlyMap<string, unknown>): Promise<BaselineBook> {
    if (this.cached && this.now().getTime() - this.cached.at < this.maxAgeMs) return this.cached.book;
    let book = await this.readStored();
    if (book === null) {
      const seeded = current && this.options.seed ? this.options.seed(current as ReadonlyMap<string, CurrentPolicy>, this.now()) : null;
      book = seeded ? await this.writeSeed(seeded) : emptyBaselineBook();
    }
    this.cached = { book, at: this.now().getTime() };
    return book;
  }

  /** Applies an approval or a withdrawal under the book's lock; `busy` when another change held the lock too long. */
  async change(request: BaselineRequest, by: string): Promise<BaselineOutcome | { ok: false; status: 503; message: string }> {
    const locked = await this.store.withLock(
      `document:${DOCUMENT}`,
      async () => {
        const outcome = applyBaselineRequest((await this.readStored()) ?? emptyBaselineBook(), request, { by, now: this.now() });
        if (outcome.ok) {
          await this.store.writeDocument(DOCUMENT, JSON.stringify(outcome.book));
          this.cached = { book: outcome.book, at: this.now().getTime() };
        }
        return outcome;
      },
      { waitMs: 10_000 },
    );
    return locked.ok ? locked.value : { ok: false, status: 503, message: 'Another change to the approved baseline is under way; try again.' };
  }

  /** The stored book, or null where none was ever written. */
  private async readStored(): Promise<BaselineBook | null> {
    const book = await readDocumentAs<BaselineBook | null>(
      this.store,
      DOCUMENT,
      (value): value is BaselineBook => isBaselineBook(value),
      () => null,
      `The approved baseline in the state store is not readable; move ${documentPath(this.store, DOCUMENT)} aside to start afresh.`,
    );
    return book;
  }

  /** Writes the seed unless another instance wrote a book first, which then wins. */
  private async writeSeed(seed: BaselineBook): Promise<BaselineBook> {
    const locked = await this.store.withLock(
      `document:${DOCUMENT}`,
      async () => {
        const stored = await this.readStored();
        if (stored) return stored;
        await this.store.writeDocument(DOCUMENT, JSON.stringify(seed));
        return seed;
      },
      { waitMs: 10_000 },
    );
    return locked.ok ? locked.value : seed;
  }
}

/** The demo's baseline for a process that keeps no state (the command line on the demo tenant): made once, kept in memory. */
export class InMemoryDemoBaseline implements ApprovedBaselineSource {
  private book: BaselineBook | null = null;

  constructor(
    private readonly seed: (current: ReadonlyMap<string, CurrentPolicy>, now: Date) => BaselineBook | null,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async read(current: ReadonlyMap<string, unknown>): Promise<BaselineBook> {
    this.book ??= this.seed(current as ReadonlyMap<string, CurrentPolicy>, this.now()) ?? emptyBaselineBook();
    return this.book;
  }
}
