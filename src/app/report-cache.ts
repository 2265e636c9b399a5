import type { LoadProgress, ReportId, ReportResult, SourceRetry } from '../core/reports/report-model.js';
import { withRetryListener } from '../graph/retry-listener.js';
import type { GraphRetry } from '../graph/retry-listener.js';

/** How far a load under way has got: records read so far from each upstream source. */
export interface ReportLoadProgress {
  report: ReportId;
  loading: boolean;
  /** Milliseconds since the load started; 0 when none is under way. */
  elapsedMs: number;
  /** `retrying`: the source's last read failed and is tried again, when and for which attempt. */
  sources: Array<{ source: string; records: number; retrying?: SourceRetry }>;
}

/**
 * Loads a report; `request.refresh` says someone asked for a fresh load (shared-loads.ts takes only a
 * newer result then). A loader that reads the report's records itself hands them to
 * `request.onRecords`, when given, for the cache to keep beside the result (`keepRecordsOf`); a
 * result served from elsewhere (another instance's) has none.
 */
export type ReportLoader = (
  id: ReportId,
  onProgress: (progress: LoadProgress) => void,
  request?: { refresh: boolean; onRecords?: (records: unknown) => void },
) => Promise<ReportResult>;

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
 * spinner. It is also the one cache for what is loaded beside the reports: a report's records, for
 * the reports asked for (`keepRecordsOf`, `recordsOf`), and other loads by name (`keep`), which "what
 * applies" keeps its reads in.
 */
export class ReportCache {
  /** `records`: what the load read, for a report whose records are kept (`keepRecordsOf`) and whose loader handed them. */
  private readonly loaded = new Map<ReportId, { result: ReportResult; at: number; records?: { value: unknown } }>();
  private readonly recordsKept = new Set<ReportId>();
  /** Loads that are not reports, kept beside them for the same period (`keep`): "what applies" keeps its reads here. */
  private readonly values = new Map<string, { value: Promise<unknown>; at: number }>();
  private readonly loading = new Map<
    ReportId,
    {
      result: Promise<ReportResult>;
      startedAt: number;
      sources: Map<string, number>;
      retrying: Map<string, SourceRetry>;
      listeners: Set<(progress: LoadProgress) => void>;
    }
  >();

  constructor(
    private readonly load: ReportLoader,
    private readonly maxAgeMs = DEFAULT_CACHE_MAX_AGE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A report no older than the cache period, or a fresh load with `refresh`; `onProgress` hears the
   * progress of the load it waits for, whether it started that load or joined it.
   */
  get(id: ReportId, options: { refresh?: boolean; onProgress?: (progress: LoadProgress) => void } = {}): Promise<ReportResult> {
    // A load already under way is as fresh as a refresh could be.
    const inFlight = this.loading.get(id) ?? null;
    const kept = this.loaded.get(id);
    if (!inFlight && kept && !options.refresh && this.now() - kept.at < this.maxAgeMs) return Promise.resolve(kept.result);
    const { onProgress } = options;
    if (!inFlight) return this.startLoad(id, options.refresh ?? false, onProgress);
    if (onProgress) {
      // Joining late, it hears what each source has read so far, then what follows.
      for (const [source, records] of inFlight.sources) onProgress({ report: id, source, records });
      inFlight.listeners.add(onProgress);
    }
    return inFlight.result;
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

  /**
   * Keeps the records of each load of report `id` beside its result from now on, so that another
   * reader of the same records takes them from here (`recordsOf`) rather than read them again: "what
   * applies" reads report 2's assignments this way, and report 2 and it make one upstream load
   * between them (docs/architecture.md, "Loading once for everyone"). Only the reports asked for keep
   * them: a report's records can be as large as its result.
   */
  keepRecordsOf(id: ReportId): void {
    this.recordsKept.add(id);
  }

  /**
   * Whether records of report `id` are at hand without starting a load: kept with a result no older
   * than the cache period, or coming with a load under way. "What applies" takes them then, and
   * otherwise reads only what one question needs (docs/performance.md, "What applies").
   */
  holdsRecordsOf(id: ReportId): boolean {
    if (!this.recordsKept.has(id)) return false;
    if (this.loading.has(id)) return true;
    const kept = this.loaded.get(id);
    return kept?.records !== undefined && this.now() - kept.at < this.maxAgeMs;
  }

  /**
   * The records of a load of report `id` no older than the cache period, and when that load ended:
   * those kept with its result, or those of the load under way, or of a load started for them (a
   * fresh one with `refresh`), which the report's viewers then take too. Null when the result came
   * without records (another instance's, or a loader that does not hand them) or the load failed: the
   * caller then reads them itself.
   */
  async recordsOf<Records = unknown>(
    id: ReportId,
    options: { refresh?: boolean; onProgress?: (progress: LoadProgress) => void } = {},
  ): Promise<{ records: Records; at: number } | null> {
    const kept = this.loaded.get(id);
    if (!options.refresh && kept?.records && this.now() - kept.at < this.maxAgeMs) return { records: kept.records.value as Records, at: kept.at };
    const result = await this.get(id, { ...(options.refresh ? { refresh: true } : {}), ...(options.onProgress ? { onProgress: options.onProgress } : {}) });
    const after = this.loaded.get(id);
    return after?.result === result && after.records ? { records: after.records.value as Records, at: after.at } : null;
  }

  /**
   * A value that is not a report, loaded once for everyone who asks for `name` while it is no older
   * than the cache period (counted from when its load started), or loaded again with `refresh`.
   * Whoever asks while it loads waits for the same load; a load that fails is not kept, so the next
   * caller loads again. `readAt` tells, of a value made partly of older reads (another load's records),
   * when its oldest read was made: it ages from then.
   */
  keep<T>(name: string, load: () => Promise<T>, options: { refresh?: boolean; readAt?: (value: T) => number } = {}): Promise<T> {
    const kept = this.values.get(name);
    if (kept && !options.refresh && this.now() - kept.at < this.maxAgeMs) return kept.value as Promise<T>;
    // A load that throws at once fails like one that rejects: not kept.
    const entry = { value: (async () => load())(), at: this.now() };
    this.values.set(name, entry);
    const { readAt } = options;
    entry.value.then(
      (value) => {
        if (readAt) entry.at = Math.min(entry.at, readAt(value));
      },
      () => {
        if (this.values.get(name) === entry) this.values.delete(name);
      },
    );
    return entry.value as Promise<T>;
  }

  /** Starts a load; `listener` hears its progress from the first event (a load may tell one before it first waits). */
  private startLoad(id: ReportId, refresh = false, listener?: (progress: LoadProgress) => void): Promise<ReportResult> {
    const sources = new Map<string, number>();
    const listeners = new Set<(progress: LoadProgress) => void>(listener ? [listener] : []);
    const retrying = new Map<string, SourceRetry>();
    const onProgress = (progress: LoadProgress) => {
      sources.set(progress.source, progress.records);
      // Records arrived: the source's retry, if any, succeeded.
      retrying.delete(progress.source);
      for (const heard of listeners) {
        // A listener is one caller's (a terminal's progress line): its failure is not the load's, which others share.
        try {
          heard(progress);
        } catch {
          listeners.delete(heard);
        }
      }
    };
    const onRetry = (retry: GraphRetry) => {
      const source = progressSource(retry.path);
      if (!sources.has(source)) sources.set(source, 0);
      retrying.set(source, { attempt: retry.attempt + 1, status: retry.status ?? null, waitMs: retry.waitMs, at: new Date(this.now() + retry.waitMs).toISOString() });
    };
    let records: { value: unknown } | undefined;
    const request = this.recordsKept.has(id) ? { refresh, onRecords: (value: unknown) => (records = { value }) } : { refresh };
    const result = withRetryListener(onRetry, () => this.load(id, onProgress, request)).then(
      (loadedResult) => {
        this.loading.delete(id);
        listeners.clear();
        if (loadedResult.state === 'load-error') {
          this.loaded.delete(id);
        } else {
          this.loaded.set(id, { result: loadedResult, at: this.now(), ...(records ? { records } : {}) });
        }
        return loadedResult;
      },
      (error: unknown) => {
        this.loading.delete(id);
        listeners.clear();
        throw error;
      },
    );
    this.loading.set(id, { result, startedAt: this.now(), sources, retrying, listeners });
    return result;
  }

  /**
   * Resolves once no load is under way, those that start meanwhile included: for closing the store
   * after the last load has written its history into it. A cache that keeps starting loads is given
   * up on after a hundred rounds; a caller that cannot wait for a long load bounds the wait itself.
   */
  async settled(): Promise<void> {
    for (let round = 0; round < 100 && this.loading.size > 0; round += 1) await Promise.allSettled([...this.loading.values()].map((load) => load.result));
  }

  progress(id: ReportId): ReportLoadProgress {
    const inFlight = this.loading.get(id);
    if (!inFlight) return { report: id, loading: false, elapsedMs: 0, sources: [] };
    return {
      report: id,
      loading: true,
      elapsedMs: this.now() - inFlight.startedAt,
      sources: [...inFlight.sources].map(([source, records]) => {
        const retry = inFlight.retrying.get(source);
        return retry ? { source, records, retrying: retry } : { source, records };
      }),
    };
  }
}

/**
 * The name a load's progress gives the source a path reads: its last segment that is not an id
 * (`/v1.0/deviceManagement/managedDevices` is `managedDevices`, as the reports name their sources).
 */
export function progressSource(path: string): string {
  const segments = path
    .split('?')[0]!
    .split('/')
    .filter((segment) => segment !== '' && !/^[0-9a-f-]{36}$/i.test(segment) && !segment.includes('('));
  return segments.at(-1) ?? path;
}
