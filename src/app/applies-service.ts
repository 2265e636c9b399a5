/**
 * "What applies to this device, this user or this group, and why?" (docs/contract.md, "What
 * applies"): one load's reads (src/core/applies/load.ts) kept in the report cache for as long as a
 * report is kept fresh, and each question answered from them by the pure rules
 * (src/core/applies/answer.ts). The assignments are report 2's records, taken from report 2's load
 * in the same cache, or loaded through it, so that report 2 and "what applies" make one upstream
 * assignment load between them. Each answer counts the Graph requests it made.
 */

import { answerApplies } from '../core/applies/answer.js';
import type { AppliesResult } from '../core/applies/applies-result.js';
import { loadAppliesReads } from '../core/applies/load.js';
import type { AppliesReads } from '../core/applies/load.js';
import { errorText } from '../core/error-text.js';
import type { GraphReader } from '../core/graph/graph-reader.js';
import { assignmentHygieneReport } from '../core/reports/assignment-hygiene/definition.js';
import type { AssignmentRecords } from '../core/reports/assignment-hygiene/load.js';
import { REPORTS } from '../core/reports/registry.js';
import { DEFAULT_CACHE_MAX_AGE_MS, ReportCache } from './report-cache.js';
import { countedReader, countingRequests } from './request-count.js';
import type { RequestCount } from './request-count.js';

export type { AppliesAnswer, AppliesEntry, AppliesGroup, AppliesSubject, AppliesVerdict, PathStep, AppliedFilter } from '../core/applies/derive.js';
export type { AppliesCandidate } from '../core/applies/resolve.js';

export type { AppliesResult } from '../core/applies/applies-result.js';

/** The name its reads are kept under in the report cache, beside the reports. */
const KEPT_AS = 'what-applies';

/** The reads of one load, and when they were made: the older of report 2's load and the reads of its own. */
interface Loaded {
  reads: AppliesReads;
  at: number;
}

export interface AppliesServiceOptions {
  /** What it reads Graph through: wrapped with `countedReader` (request-count.ts) when it is not already. */
  graph: GraphReader;
  /**
   * The cache the reports are kept in (createServices gives its own): its reads are kept there, and
   * report 2's records taken from it. Without one (a test, the bench) it makes one of its own over
   * the registry's reports, `graph`, `maxAgeMs` and `clock`.
   */
  cache?: ReportCache;
  /**
   * Whether the cache's loads of report 2 read its records through the registry and hand them over
   * (`ReportLoader`'s `onRecords`): false when the reports are loaded some other way, and then the
   * assignments are read here. True by default.
   */
  sharesReportLoads?: boolean;
  /** For a cache of its own: how long one load's reads answer questions (the reports' freshness, five minutes by default). */
  maxAgeMs?: number;
  clock?: () => number;
  log: (line: string) => void;
}

export class AppliesService {
  private readonly graph: GraphReader;
  private readonly cache: ReportCache;
  private readonly sharesReportLoads: boolean;
  private readonly now: () => number;

  constructor(private readonly options: AppliesServiceOptions) {
    this.now = options.clock ?? Date.now;
    this.graph = countedReader(options.graph);
    if (options.cache) {
      this.cache = options.cache;
      this.sharesReportLoads = options.sharesReportLoads ?? true;
    } else {
      const graph = this.graph;
      this.cache = new ReportCache(
        (id, onProgress, request) => REPORTS.load(id, graph, { onProgress, ...(request?.onRecords ? { onRecords: request.onRecords } : {}) }),
        options.maxAgeMs ?? DEFAULT_CACHE_MAX_AGE_MS,
        this.now,
      );
      this.sharesReportLoads = true;
    }
    if (this.sharesReportLoads) this.cache.keepRecordsOf(assignmentHygieneReport.id);
  }

  async applies(query: string, options: { refresh?: boolean } = {}): Promise<AppliesResult> {
    const count: RequestCount = { requests: 0 };
    let loaded: Loaded;
    try {
      loaded = await countingRequests(count, () => this.cache.keep(KEPT_AS, () => this.load(options.refresh === true), { ...options, readAt: (kept) => kept.at }));
    } catch (error) {
      return { kind: 'failed', query, words: `The tenant could not be read: ${errorText(error)}`, requests: count.requests };
    }
    const outcome = answerApplies(query, loaded.reads);
    if (outcome.kind !== 'found') return { ...outcome, requests: count.requests };
    return { kind: 'found', answer: outcome.answer, requests: count.requests, loadedAt: new Date(loaded.at).toISOString() };
  }

  private async load(refresh: boolean): Promise<Loaded> {
    const at = this.now();
    let assignmentsAt = at;
    const assignments = this.assignments(refresh).then(({ records, at: loadedAt }) => {
      assignmentsAt = Math.min(at, loadedAt);
      return records;
    });
    const reads = await loadAppliesReads(this.graph, assignments);
    this.options.log(
      `what applies: read ${reads.assignments.objects.length} assigned objects, ${reads.devices.length} managed devices and the members of ${reads.members.size} groups`,
    );
    return { reads, at: assignmentsAt };
  }

  /**
   * Report 2's records: from the cache when a load of report 2 there has them, or from a load of
   * report 2 through it; read here only when the cache's report came without them (another
   * instance's result, or reports loaded some other way) or its load failed, so that the question
   * then fails with Graph's own answer, as it always has.
   */
  private async assignments(refresh: boolean): Promise<{ records: AssignmentRecords; at: number }> {
    if (this.sharesReportLoads) {
      const shared = await this.cache.recordsOf(assignmentHygieneReport, { refresh });
      if (shared) return shared;
    }
    const at = this.now();
    return { records: await assignmentHygieneReport.load({ graph: this.graph }), at };
  }
}
