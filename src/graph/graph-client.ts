import { GraphAttempts } from './graph-attempts.js';
import type { GraphCall, GraphExchange } from './graph-attempts.js';
import { getThroughBatch } from './graph-batch.js';
import { GraphRequestRefusedError } from '../core/graph/graph-error.js';
import { followNextLink, readPages } from './graph-paging.js';
import { CLIENT_VERSION, MAX_BATCH_SIZE } from '../core/graph/graph-reader.js';
import type { BatchOptions, BatchOutcome, BatchSubRequest, GraphPage, GraphReader, PagesOptions, QueryOptions, RequestOptions } from '../core/graph/graph-reader.js';
import type { HttpTransport } from './http-transport.js';
import type { RequestBudget } from './request-budget.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AccessTokenSource } from './token-source.js';
import { BATCH_PATHS, UpstreamAllowList } from './upstream-allow-list.js';
import type { UpstreamRead } from '../core/graph/upstream-read.js';

// What callers of the client see of its parts: each exchange (for a log or a bench), and how a
// page's next link is read. The reading vocabulary is the core's Graph port (graph-reader.ts).
export type { GraphCall, GraphExchange } from './graph-attempts.js';
export { peekNextLink } from './graph-paging.js';

export interface GraphClientOptions {
  /** Graph origin, e.g. `https://graph.microsoft.com` (the spec's `{api_base_url}`). */
  baseUrl: string;
  /**
   * The reads this client may make, as the reports and "what applies" declare them: its allow-list
   * is derived from them (upstream-allow-list.ts). The composition root hands them in.
   */
  reads: readonly UpstreamRead[];
  tokens: AccessTokenSource;
  transport: HttpTransport;
  /** Requests in flight at once across every caller of this client. */
  maxConcurrency?: number;
  /** Sub-requests per `$batch` call; Graph allows at most 20. */
  batchSize?: number;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  userAgent?: string;
  onExchange?: (exchange: GraphExchange) => void;
  /** Sees each call once it ends, with its retries and waits: telemetry's dependency (path templates only). */
  onCall?: (call: GraphCall) => void;
  /** Pacing under Graph's per-app limits; see `GraphAttemptsOptions.budget`. */
  budget?: RequestBudget | false;
  /**
   * Read the Intune collections that `/v1.0` cuts short on `/beta` instead (`GRAPH_BETA_COVERAGE`):
   * the allow-list then takes exactly their beta twins, and the reports read those.
   */
  betaCoverage?: boolean;
  /**
   * Read the objects' Intune scope tags where only `/beta` gives them, for the viewer scope
   * (`VIEWER_SCOPE=intune-rbac`): the allow-list then takes exactly the twins declared for it
   * (`scopeTagsSelect`), and the reports that declare one read it.
   */
  scopeTags?: boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

const USER_AGENT = `DeviceManagementHealth/${CLIENT_VERSION}`;

/**
 * A read-only Microsoft Graph client: GET to the specification's paths, paging that stays on the
 * configured origin, `$batch` with per-sub-request retry, and retries that honour `Retry-After`,
 * all under one concurrency limit shared by every report that uses this client. It builds the URLs
 * and hands them to its parts: `GraphAttempts` sends every request, `readPages` pages a collection
 * and `getThroughBatch` runs `$batch` calls.
 */
export class GraphClient implements GraphReader {
  private readonly origin: string;
  private readonly attempts: GraphAttempts;
  private readonly batchSize: number;

  constructor(private readonly options: GraphClientOptions) {
    this.origin = new URL(options.baseUrl).origin;
    this.attempts = new GraphAttempts({
      allowList: new UpstreamAllowList(options.reads),
      tokens: options.tokens,
      transport: options.transport,
      userAgent: options.userAgent ?? USER_AGENT,
      maxConcurrency: options.maxConcurrency,
      retry: options.retry,
      requestTimeoutMs: options.requestTimeoutMs,
      betaCoverage: options.betaCoverage,
      scopeTags: options.scopeTags,
      onExchange: options.onExchange,
      ...(options.onCall ? { onCall: options.onCall } : {}),
      ...(options.budget === undefined ? {} : { budget: options.budget }),
      sleep: options.sleep,
      random: options.random,
      now: options.now,
    });
    this.batchSize = options.batchSize ?? MAX_BATCH_SIZE;
    if (this.batchSize < 1 || this.batchSize > MAX_BATCH_SIZE) throw new RangeError(`batchSize must be 1..${MAX_BATCH_SIZE}`);
  }

  /** Whether this client reads the beta twins of the collections `/v1.0` cuts short. */
  get betaCoverage(): boolean {
    return this.options.betaCoverage === true;
  }

  /** Whether this client reads the objects' scope tags where only `/beta` gives them (the viewer scope is on). */
  get scopeTags(): boolean {
    return this.options.scopeTags === true;
  }

  /** The path this client reads for a specification path: its beta twin under complete coverage. */
  coveragePath(path: string): string {
    return this.attempts.allowList.coveragePath(path, { betaCoverage: this.betaCoverage });
  }

  /** The load has seen at least `count` distinct users: the directory's pace may follow the tenant's size. */
  tenantUsersAtLeast(count: number): void {
    this.attempts.tenantUsersAtLeast(count);
  }

  /** One entity or singleton, e.g. `/beta/deviceManagement/windowsAutopilotSettings`. */
  async get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.resolve(path, options.query);
    const { body } = await this.attempts.sendForJson('GET', url, {
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    return body as T;
  }

  /**
   * The pages of a collection, one request per page, in order, at most one page read ahead (see
   * `readPages`). With `after`, the pages from that next link of the collection on. An aborted
   * `signal` stops the paging with its reason.
   */
  async *pages<T>(path: string, options: PagesOptions = {}): AsyncGenerator<GraphPage<T>> {
    options.signal?.throwIfAborted();
    const collection = this.resolve(path, options.query);
    const first = options.after === undefined ? collection : followNextLink(options.after, collection.pathname, this.origin, this.attempts.allowList);
    yield* readPages<T>(this.attempts, first, options);
  }

  /**
   * Every item of a collection. `project` runs on each item as its page arrives, so only the fields
   * a report uses are kept in memory on large tenants.
   */
  async getAll<T, R = T>(path: string, options: RequestOptions = {}, project?: (item: T) => R): Promise<R[]> {
    const all: R[] = [];
    for await (const page of this.pages<T>(path, options)) {
      for (const item of page.items) all.push(project ? project(item) : (item as unknown as R));
    }
    return all;
  }

  /**
   * GET sub-requests through `POST /v1.0/$batch` (or `/beta/$batch`), at most 20 to a call and
   * several calls in flight, each call paced by its sub-requests. Sub-requests answered
   * 429/503/504 are sent again by themselves after the delay they name; each sub-request ends as
   * its own outcome, so one failure never hides the others' answers.
   */
  async batchGet(requests: readonly BatchSubRequest[], options: BatchOptions = {}): Promise<Map<string, BatchOutcome>> {
    return getThroughBatch(this.attempts, requests, {
      url: this.resolve(BATCH_PATHS[options.version ?? 'v1.0']),
      batchSize: this.batchSize,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  }

  private resolve(path: string, query?: QueryOptions): URL {
    if (!path.startsWith('/')) throw new GraphRequestRefusedError(`Refused "${path}": Graph paths start with the version segment.`);
    const url = new URL(path, this.origin);
    if (url.origin !== this.origin) throw new GraphRequestRefusedError(`Refused "${path}": it leaves ${this.origin}.`);
    if (query && Object.keys(query).length > 0) {
      url.search = Object.entries(query)
        .map(([name, value]) => `${name}=${encodeQueryValue(value)}`)
        .join('&');
    }
    return url;
  }
}

// OData system options read best with `$`, `,` and `=` left as they are; everything else is escaped.
function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(/%24/g, '$').replace(/%2C/gi, ',').replace(/%3D/gi, '=');
}
