/**
 * The change feed as every front end asks for it (docs/contract.md, "The change feed"): the tenant's
 * changes in a window, read through the audit log the reports share (read once, then only what is
 * new) and named by what the feed's own reads give (src/core/changes/load.ts), kept for the next
 * feed, which reads only what changed since. Loads that ask for the same window at once share one read.
 */

import type { GraphReader } from '../core/graph/graph-reader.js';
import type { AuditLogSource } from '../core/reports/report-model.js';
import { emptyKnownNames, loadChangeFeed } from '../core/changes/load.js';
import type { ChangeFeedResult } from '../core/changes/load.js';
import type { ChangeWindow } from '../core/changes/change-feed.js';
import { errorText } from '../core/error-text.js';

export interface ChangeFeedServiceOptions {
  graph: GraphReader;
  /** The tenant's audit log as the reports share it. */
  auditLog: AuditLogSource;
  now?: () => Date;
  log: (line: string) => void;
}

export interface ChangeFeedRequest {
  signal?: AbortSignal;
  /** Records read so far from one source, as a report's load tells it. */
  onProgress?: (source: string, records: number) => void;
}

export class ChangeFeedService {
  private readonly underWay = new Map<string, Promise<ChangeFeedResult>>();
  /** What earlier feeds named: a later one reads only the settings of policies changed since, and ids not named yet. */
  private readonly known = emptyKnownNames();

  constructor(private readonly options: ChangeFeedServiceOptions) {}

  /** The changes of `window`, newest first; a log that cannot be read is the answer's load error. */
  async feed(window: ChangeWindow, request: ChangeFeedRequest = {}): Promise<ChangeFeedResult> {
    const key = JSON.stringify([window.since.toISOString(), window.until?.toISOString() ?? null, window.object ?? null, window.person ?? null]);
    const shared = request.onProgress ? undefined : this.underWay.get(key);
    if (shared) return shared;
    const { graph, auditLog, now, log } = this.options;
    const started = Date.now();
    const answer = loadChangeFeed(
      { graph, auditLog, ...(now ? { now } : {}), ...(request.onProgress ? { onProgress: request.onProgress } : {}) },
      window,
      request.signal ?? new AbortController().signal,
      this.known,
    ).then(
      (result) => {
        log(`change feed: ${result.state === 'loaded' ? `${result.feed.changes.length} changes` : 'load error'} in ${Date.now() - started} ms`);
        return result;
      },
      (error: unknown) => {
        log(`change feed: could not be built: ${errorText(error)}`);
        throw error;
      },
    );
    if (!request.onProgress) {
      this.underWay.set(key, answer);
      void answer.finally(() => this.underWay.delete(key)).catch(() => undefined);
    }
    return answer;
  }
}
