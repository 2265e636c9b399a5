import type { ReportId, ReportResult } from '../core/reports/report-model.js';
import type { StateStore } from '../store/state-store.js';
import type { ReportLoader } from './report-cache.js';
import { errorText } from '../core/error-text.js';

export interface SharedLoadOptions {
  /** How long a stored result counts as fresh: the cache's period, so that one load serves every instance for it. */
  maxAgeMs: number;
  /** How long an instance waits for another one's load of the same report before it loads for itself. */
  waitMs?: number;
  log: (line: string) => void;
  now?: () => number;
}

/** A report of 100,000 devices loads in well under this; past it, the waiting instance stops waiting. */
const DEFAULT_WAIT_MS = 10 * 60_000;

/**
 * Several instances, one load (docs/architecture.md, "Several instances"): a report is loaded under
 * the state store's lock for it (a blob lease on Azure Storage), and a successful result is stored,
 * compressed, for the others. An instance that needs the report takes the lock, and finds either a
 * result fresh enough (another instance loaded it during the cache period, or while this one
 * waited), which it serves, or none, and loads it from Graph itself. A load error is never stored:
 * the next instance tries again. A store that fails costs sharing, never the report: the instance
 * loads for itself.
 */
export function sharedLoader(load: ReportLoader, store: StateStore, options: SharedLoadOptions): ReportLoader {
  const now = options.now ?? Date.now;
  return async (id, onProgress, request = { refresh: false }) => {
    const askedAt = now();
    // An explicit refresh takes only a result made after it was asked for: one another instance
    // loaded while this one waited, which is as fresh as a load of its own.
    const freshFrom = request.refresh ? askedAt : askedAt - options.maxAgeMs;
    let locked;
    let loading = false;
    try {
      locked = await store.withLock(
        `load:${id}`,
        async () => {
          const stored = await readStored(store, id, options.log);
          if (stored && Date.parse(stored.generatedAt) >= freshFrom) {
            options.log(`report ${id}: served the result another instance loaded at ${stored.generatedAt}`);
            return stored;
          }
          loading = true;
          const result = await load(id, onProgress, request);
          if (result.state !== 'load-error') {
            await store
              .writeCompressed(resultDocument(id), JSON.stringify(result))
              .catch((error: unknown) => options.log(`report ${id}: could not share this load: ${errorText(error)}`));
          }
          return result;
        },
        { waitMs: options.waitMs ?? DEFAULT_WAIT_MS },
      );
    } catch (error) {
      if (loading) throw error; // the load's own failure, not the store's: loading again would not help
      options.log(`report ${id}: the state store failed (${errorText(error)}); loading without sharing`);
      return load(id, onProgress, request);
    }
    if (locked.ok) return locked.value;
    options.log(`report ${id}: another instance's load took too long; loading without it`);
    return load(id, onProgress, request);
  };
}

function resultDocument(id: ReportId): string {
  return `result-${id}`;
}

/** The stored result, or null: one that cannot be read is loaded again and overwritten. */
async function readStored(store: StateStore, id: ReportId, log: (line: string) => void): Promise<ReportResult | null> {
  try {
    const text = await store.readCompressed(resultDocument(id));
    if (text === null) return null;
    const result = JSON.parse(text) as Partial<ReportResult> | null;
    if (
      result?.report === id &&
      typeof result.generatedAt === 'string' &&
      Array.isArray(result.rows) &&
      Array.isArray(result.findings) &&
      Array.isArray(result.uncheckedSubjects) &&
      Array.isArray(result.notChecked)
    ) {
      return result as ReportResult;
    }
    log(`report ${id}: the shared result is not a report; loading it again`);
  } catch (error) {
    log(`report ${id}: the shared result could not be read (${errorText(error)}); loading it again`);
  }
  return null;
}
