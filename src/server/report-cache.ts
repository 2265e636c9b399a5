import type { LoadProgress, ReportId, ReportResult } from '../core/reports/report-model.js';
import { previewReport } from '../core/reports/report-preview.js';
import { EncodedReport } from './report-encoding.js';

/** How far a load under way has got: records read so far from each upstream source. */
export interface ReportLoadProgress {
  report: ReportId;
  loading: boolean;
  /** Milliseconds since the load started; 0 when none is under way. */
  elapsedMs: number;
  sources: Array<{ source: string; records: number }>;
}

/** Loads a report; `request.refresh` says someone asked for a fresh load (shared-loads.ts takes only a newer result then). */
export type ReportLoader = (id: ReportId, onProgress: (progress: LoadProgress) => void, request?: { refresh: boolean }) => Promise<ReportResult>;

/** How long a loaded report counts as fresh: five minutes, then it is served while a newer one loads. */
export const DEFAULT_CACHE_MAX_AGE_MS = 5 * 60_000;

/** A report as a viewer opens it: the last good result at once while a newer one loads, or the result. */
export interface OpenedReport {
  result: ReportResult;
  /** A newer result is loading: this one is older than the cache keeps results fresh. */
  refreshing: boolean;
}

/**
 * Reports shared by everyone who opens the tab: loaded once however many viewers ask at the same
 * moment (single flight), kept for a short while, and loaded again on an explicit refresh. Opening a
 * report whose result has aged serves that result at once, with its age, while a newer one loads
 * (stale-while-revalidate). A load error is never kept, so the next viewer tries again. While a load
 * is under way its progress can be read, so a viewer of a 100,000-device report sees more than a
 * spinner.
 */
export class ReportCache {
  private readonly loaded = new Map<ReportId, { result: ReportResult; at: number }>();
  private readonly loading = new Map<ReportId, { result: Promise<ReportResult>; startedAt: number; sources: Map<string, number> }>();
  private readonly encodings = new WeakMap<ReportResult, Promise<EncodedReport>>();
  private readonly previewEncodings = new WeakMap<ReportResult, Promise<EncodedReport>>();
  private serialized = 0;

  constructor(
    private readonly load: ReportLoader,
    private readonly maxAgeMs = DEFAULT_CACHE_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  get(id: ReportId, options: { refresh?: boolean } = {}): Promise<ReportResult> {
    // A load already under way is as fresh as a refresh could be.
    const inFlight = this.loading.get(id);
    if (inFlight) return inFlight.result;
    const kept = this.loaded.get(id);
    if (kept && !options.refresh && this.now() - kept.at < this.maxAgeMs) return Promise.resolve(kept.result);
    return this.startLoad(id, options.refresh ?? false);
  }

  /**
   * A report for a viewer who is opening it: fresh if it is; if it has aged, the last good result
   * at once while a newer one loads (joining a load under way rather than starting another); the
   * first load, or an explicit refresh, is waited for.
   */
  async open(id: ReportId, options: { refresh?: boolean } = {}): Promise<OpenedReport> {
    const kept = this.loaded.get(id);
    if (options.refresh || !kept) return { result: await this.get(id, options), refreshing: false };
    if (this.now() - kept.at < this.maxAgeMs) return { result: kept.result, refreshing: false };
    if (!this.loading.has(id)) void this.startLoad(id).catch(() => undefined); // the next viewer sees how it went
    return { result: kept.result, refreshing: true };
  }

  private startLoad(id: ReportId, refresh = false): Promise<ReportResult> {
    const sources = new Map<string, number>();
    const result = this.load(id, (progress) => sources.set(progress.source, progress.records), { refresh }).then(
      (loadedResult) => {
        this.loading.delete(id);
        if (loadedResult.state === 'load-error') {
          this.loaded.delete(id);
        } else {
          this.loaded.set(id, { result: loadedResult, at: this.now() });
        }
        return loadedResult;
      },
      (error: unknown) => {
        this.loading.delete(id);
        throw error;
      },
    );
    this.loading.set(id, { result, startedAt: this.now(), sources });
    return result;
  }

  /** A result as bytes: serialized once, on first request (viewers asking meanwhile wait for the same), and kept as long as the result is. */
  encoded(result: ReportResult): Promise<EncodedReport> {
    return this.encodeOnce(this.encodings, result, () => result);
  }

  /** A result's preview (report-preview.ts) as bytes: made once, as the whole result's bytes are. */
  encodedPreview(result: ReportResult): Promise<EncodedReport> {
    return this.encodeOnce(this.previewEncodings, result, () => previewReport(result));
  }

  private encodeOnce(made: WeakMap<ReportResult, Promise<EncodedReport>>, result: ReportResult, representation: () => ReportResult): Promise<EncodedReport> {
    let encoded = made.get(result);
    if (!encoded) {
      encoded = EncodedReport.of(representation());
      this.serialized += 1;
      made.set(result, encoded);
      // A serialization that failed (a bug) is not kept: the next viewer tries again.
      encoded.catch(() => made.delete(result));
    }
    return encoded;
  }

  /** How many representations were turned into bytes: one of each per load, however many viewers read it. */
  get serializations(): number {
    return this.serialized;
  }

  progress(id: ReportId): ReportLoadProgress {
    const inFlight = this.loading.get(id);
    if (!inFlight) return { report: id, loading: false, elapsedMs: 0, sources: [] };
    return {
      report: id,
      loading: true,
      elapsedMs: this.now() - inFlight.startedAt,
      sources: [...inFlight.sources].map(([source, records]) => ({ source, records })),
    };
  }
}
