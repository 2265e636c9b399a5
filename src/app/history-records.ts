import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import { documentPath, parseJsonOrUndefined, readDocumentAs } from '../store/state-store.js';
import type { StateStore } from '../store/state-store.js';
import { emptyHistory, isLastFindings, isReportHistory, recordLoad } from '../core/history/report-history.js';
import type { LastFindings, ReportHistory } from '../core/history/report-history.js';

/** Other instances' loads show within this long; this instance's own at once. */
const DEFAULT_MAX_AGE_MS = 30_000;

/**
 * Each report's history in the state store (docs/architecture.md, "Triage and history"):
 * `history-<report>` holds the points, `history-<report>-findings` the last load's fingerprints.
 * Every instance adds its own successful loads, under the report's history lock.
 */
export class HistoryRecords {
  private readonly cached = new Map<ReportId, { history: ReportHistory; at: number }>();
  private readonly now: () => number;
  private readonly maxAgeMs: number;

  constructor(
    private readonly store: StateStore,
    options: { now?: () => number; maxAgeMs?: number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  }

  async read(report: ReportId): Promise<ReportHistory> {
    const kept = this.cached.get(report);
    if (kept && this.now() - kept.at < this.maxAgeMs) return kept.history;
    const history = await this.readHistory(report);
    this.cached.set(report, { history, at: this.now() });
    return history;
  }

  /** Adds a load; a failed load adds nothing. `false` when another instance held the lock too long. */
  async record(result: ReportResult): Promise<boolean> {
    if (result.state === 'load-error') return true;
    const report = result.report;
    const locked = await this.store.withLock(
      `document:history-${report}`,
      async () => {
        const recorded = recordLoad(await this.readHistory(report), await this.readLast(report), result);
        if (!recorded) return;
        await this.store.writeDocument(`history-${report}`, JSON.stringify(recorded.history));
        await this.store.writeDocument(`history-${report}-findings`, JSON.stringify(recorded.last));
        this.cached.set(report, { history: recorded.history, at: this.now() });
      },
      // A viewer may be waiting for this load: another instance's write takes milliseconds, and
      // one that holds the lock longer costs this load its point rather than the viewer time.
      { waitMs: 2_000 },
    );
    return locked.ok;
  }

  private readHistory(report: ReportId): Promise<ReportHistory> {
    return readDocumentAs(
      this.store,
      `history-${report}`,
      (value): value is ReportHistory => isReportHistory(value, report),
      () => emptyHistory(report),
      `The history of report ${report} in the state store is not readable; move ${documentPath(this.store, `history-${report}`)} aside.`,
    );
  }

  /** The last load's fingerprints; an unreadable copy is dropped (the next point then counts no changes), as it only feeds counts. */
  private async readLast(report: ReportId): Promise<LastFindings | null> {
    const text = await this.store.readDocument(`history-${report}-findings`);
    if (text === null) return null;
    const parsed = parseJsonOrUndefined(text);
    return isLastFindings(parsed, report) ? parsed : null;
  }
}
