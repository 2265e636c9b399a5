import { documentPath, readDocumentAs } from '../store/state-store.js';
import type { StateStore } from '../store/state-store.js';
import { applyTriage, decisionsInForce, emptyTriageBook, isTriageBook, sequencedTriageBook } from '../core/triage/triage-book.js';
import type { TriageBook, TriageDecision, TriageOutcome, TriageRequest } from '../core/triage/triage-book.js';
import { errorText } from '../core/error-text.js';

const DOCUMENT = 'triage';
/** Other instances' decisions show within this long; this instance's own at once. */
const DEFAULT_MAX_AGE_MS = 10_000;

/**
 * The triage book in the state store (docs/architecture.md, "Triage and history"), shared by every
 * instance: read through a short cache, changed under the store's lock so that two people deciding
 * at once on two instances both count.
 */
export class TriageRecords {
  private cached: { book: TriageBook; at: number } | null = null;
  private readonly now: () => Date;
  private readonly maxAgeMs: number;

  constructor(
    private readonly store: StateStore,
    options: { now?: () => Date; maxAgeMs?: number } = {},
  ) {
    this.now = options.now ?? (() => new Date());
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  }

  /** The book; a torn or foreign one is a `StateStoreError`, never an empty book that would reopen every decision. */
  async read(): Promise<TriageBook> {
    if (this.cached && this.now().getTime() - this.cached.at < this.maxAgeMs) return this.cached.book;
    const book = await this.readStored();
    this.cached = { book, at: this.now().getTime() };
    return book;
  }

  /** Decisions in force now, by fingerprint. */
  async inForce(): Promise<Map<string, TriageDecision>> {
    return decisionsInForce(await this.read(), this.now());
  }

  /**
   * Decisions in force, or null when they cannot be read (a torn book, a store out of reach): for
   * what only counts with them (a summary, a card), which then counts every finding as open and
   * says so. The reason goes to `log`.
   */
  async inForceOrNull(log: (line: string) => void): Promise<Map<string, TriageDecision> | null> {
    try {
      return await this.inForce();
    } catch (error) {
      log(`could not read the triage decisions: ${errorText(error)}`);
      return null;
    }
  }

  /** Applies a request under the book's lock; `busy` when another change held the lock too long. */
  async change(request: TriageRequest, context: Omit<Parameters<typeof applyTriage>[2], 'now'>): Promise<TriageOutcome | { ok: false; status: 503; message: string }> {
    const locked = await this.store.withLock(
      `document:${DOCUMENT}`,
      async () => {
        const outcome = applyTriage(await this.readStored(), request, { ...context, now: this.now() });
        if (outcome.ok) {
          await this.store.writeDocument(DOCUMENT, JSON.stringify(outcome.book));
          this.cached = { book: outcome.book, at: this.now().getTime() };
        }
        return outcome;
      },
      { waitMs: 10_000 },
    );
    return locked.ok ? locked.value : { ok: false, status: 503, message: 'Another change to the triage decisions is under way; try again.' };
  }

  /** The stored book, its audit entries numbered (an older book's have no numbers until its next change). */
  private async readStored(): Promise<TriageBook> {
    const stored = await readDocumentAs(
      this.store,
      DOCUMENT,
      isTriageBook,
      emptyTriageBook,
      `The triage decisions in the state store are not readable; move ${documentPath(this.store, DOCUMENT)} aside to start afresh.`,
    );
    return sequencedTriageBook(stored);
  }
}
