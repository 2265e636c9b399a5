import type { ReportId, ReportResult } from '../core/reports/report-model.js';

/**
 * Reports shared by everyone who opens the tab: loaded once however many viewers ask at the same
 * moment (single flight), kept for a short while, and loaded again on an explicit refresh. A load
 * error is never kept, so the next viewer tries again.
 */
export class ReportCache {
  private readonly loaded = new Map<ReportId, { result: ReportResult; at: number }>();
  private readonly loading = new Map<ReportId, Promise<ReportResult>>();

  constructor(
    private readonly load: (id: ReportId) => Promise<ReportResult>,
    private readonly maxAgeMs = 5 * 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: ReportId, options: { refresh?: boolean } = {}): Promise<ReportResult> {
    // A load already under way is as fresh as a refresh could be.
    const inFlight = this.loading.get(id);
    if (inFlight) return inFlight;
    const kept = this.loaded.get(id);
    if (kept && !options.refresh && this.now() - kept.at < this.maxAgeMs) return Promise.resolve(kept.result);

    const loading = this.load(id).then(
      (result) => {
        this.loading.delete(id);
        if (result.state === 'load-error') this.loaded.delete(id);
        else this.loaded.set(id, { result, at: this.now() });
        return result;
      },
      (error: unknown) => {
        this.loading.delete(id);
        throw error;
      },
    );
    this.loading.set(id, loading);
    return loading;
  }
}
