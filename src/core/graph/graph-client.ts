import { GraphAttempts } from './graph-attempts.js';
import type { GraphExchange } from './graph-attempts.js';
import { GraphError, GraphRequestRefusedError, graphErrorForAnswer } from './graph-error.js';
import { readPages } from './graph-paging.js';
import type { GraphPage } from './graph-paging.js';
import type { HttpTransport } from './http-transport.js';
import { isRetryableStatus } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AccessTokenSource } from './token-source.js';
import { BATCH_PATH, coveragePath, isAllowedUpstreamPath } from './upstream-allow-list.js';

// The client's vocabulary, importable from here as before the client was split into its parts.
export type { GraphExchange } from './graph-attempts.js';
export { MAX_PAGES, peekNextLink } from './graph-paging.js';
export type { GraphPage } from './graph-paging.js';

export type QueryOptions = Record<string, string>;

export interface RequestOptions {
  query?: QueryOptions;
  /** Extra request headers, e.g. `Prefer: include-unknown-enum-members`. */
  headers?: Record<string, string>;
  /** Stops paging between pages (a report whose other source failed needs no more). */
  signal?: AbortSignal;
}

export interface GraphClientOptions {
  /** Graph origin, e.g. `https://graph.microsoft.com` (the spec's `{api_base_url}`). */
  baseUrl: string;
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
  /**
   * Read the Intune collections that `/v1.0` cuts short on `/beta` instead (`GRAPH_BETA_COVERAGE`):
   * the allow-list then takes exactly their beta twins, and the reports read those.
   */
  betaCoverage?: boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface BatchSubRequest {
  /** Unique within one `batchGet` call. */
  id: string;
  /** Relative to the version segment, as `$batch` wants it: `/groups/{id}?$select=id`. */
  url: string;
  headers?: Record<string, string>;
}

export type BatchOutcome = { ok: true; status: number; body: unknown } | { ok: false; error: GraphError };

/** Graph's documented limit: "JSON batch requests are currently limited to 20 individual requests". */
export const MAX_BATCH_SIZE = 20;

/** How this service names itself upstream: User-Agent here, `ocp-client-name` / `-version` where asked. */
export const CLIENT_NAME = 'Device Management Health';
export const CLIENT_VERSION = '0.1';
const USER_AGENT = `DeviceManagementHealth/${CLIENT_VERSION}`;

/**
 * A read-only Microsoft Graph client: GET to the specification's paths, paging that stays on the
 * configured origin, `$batch` with per-sub-request retry, and retries that honour `Retry-After`,
 * all under one concurrency limit shared by every report that uses this client. It builds the URLs
 * and hands them to its parts: `GraphAttempts` sends every request, `readPages` pages a collection.
 */
export class GraphClient {
  private readonly origin: string;
  private readonly attempts: GraphAttempts;
  private readonly batchSize: number;

  constructor(private readonly options: GraphClientOptions) {
    this.origin = new URL(options.baseUrl).origin;
    this.attempts = new GraphAttempts({
      tokens: options.tokens,
      transport: options.transport,
      userAgent: options.userAgent ?? USER_AGENT,
      maxConcurrency: options.maxConcurrency,
      retry: options.retry,
      requestTimeoutMs: options.requestTimeoutMs,
      betaCoverage: options.betaCoverage,
      onExchange: options.onExchange,
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

  /** The path this client reads for a specification path: its beta twin under complete coverage. */
  coveragePath(path: string): string {
    return coveragePath(path, { betaCoverage: this.betaCoverage });
  }

  /** One entity or singleton, e.g. `/beta/deviceManagement/windowsAutopilotSettings`. */
  async get<T>(path: string, options: RequestOptions = {}): Promise<T> {
    const url = this.resolve(path, options.query);
    const { body } = await this.attempts.sendForJson('GET', url, { ...(options.headers ? { headers: options.headers } : {}), ...(options.signal ? { signal: options.signal } : {}) });
    return body as T;
  }

  /**
   * The pages of a collection, one request per page, in order, at most one page read ahead (see
   * `readPages`). An aborted `signal` stops the paging with its reason.
   */
  async *pages<T>(path: string, options: RequestOptions = {}): AsyncGenerator<GraphPage<T>> {
    options.signal?.throwIfAborted();
    yield* readPages<T>(this.attempts, this.resolve(path, options.query), options);
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
   * GET sub-requests through `POST /v1.0/$batch`, at most 20 to a call and several calls in flight.
   * Sub-requests answered 429/503/504 are sent again by themselves after the delay they name; each
   * sub-request ends as its own outcome, so one failure never hides the others' answers.
   */
  async batchGet(requests: readonly BatchSubRequest[], options: { signal?: AbortSignal } = {}): Promise<Map<string, BatchOutcome>> {
    const ids = new Set<string>();
    for (const request of requests) {
      if (ids.has(request.id)) throw new GraphRequestRefusedError(`Duplicate $batch sub-request id "${request.id}".`);
      ids.add(request.id);
      const pathname = new URL(request.url, 'https://batch.invalid/').pathname;
      if (!request.url.startsWith('/') || !isAllowedUpstreamPath(`/v1.0${pathname}`)) {
        throw new GraphRequestRefusedError(`Refused $batch sub-request GET ${request.url}: not a path this service may read.`);
      }
    }
    const outcomes = new Map<string, BatchOutcome>();
    const chunks: BatchSubRequest[][] = [];
    for (let start = 0; start < requests.length; start += this.batchSize) chunks.push(requests.slice(start, start + this.batchSize));
    await Promise.all(chunks.map((chunk) => this.runBatchChunk(chunk, outcomes, options.signal)));
    return outcomes;
  }

  private async runBatchChunk(chunk: BatchSubRequest[], outcomes: Map<string, BatchOutcome>, signal: AbortSignal | undefined): Promise<void> {
    const waits = this.attempts.retryWaits(signal);
    let pending = chunk;
    for (let round = 1; pending.length > 0; round += 1) {
      const body = JSON.stringify({
        requests: pending.map((request) => ({
          id: request.id,
          method: 'GET',
          url: request.url,
          ...(request.headers ? { headers: request.headers } : {}),
        })),
      });
      let responses: Map<string, { status: number; headers: Record<string, string>; body: unknown }>;
      try {
        const { body: batchBody, requestPath } = await this.attempts.sendForJson('POST', this.resolve(BATCH_PATH), {
          body,
          headers: { 'content-type': 'application/json' },
          ...(signal ? { signal } : {}),
        });
        responses = readBatchResponses(batchBody, requestPath);
      } catch (error) {
        if (!(error instanceof GraphError)) throw error;
        for (const request of pending) outcomes.set(request.id, { ok: false, error });
        return;
      }

      const again: Array<{ request: BatchSubRequest; error: GraphError; retryAfter: string | undefined }> = [];
      for (const request of pending) {
        const response = responses.get(request.id.toLowerCase());
        const path = `/v1.0${request.url}`;
        if (!response) {
          again.push({
            request,
            retryAfter: undefined,
            error: new GraphError({ kind: 'malformed-response', message: 'the $batch response has no answer for this sub-request', method: 'GET', path, attempts: round }),
          });
          continue;
        }
        if (response.status >= 200 && response.status < 300) {
          outcomes.set(request.id, { ok: true, status: response.status, body: response.body });
          continue;
        }
        const error = graphErrorForAnswer(response, { method: 'GET', path, attempts: round });
        if (isRetryableStatus(response.status)) {
          again.push({ request, error, retryAfter: response.headers['retry-after'] });
        } else {
          outcomes.set(request.id, { ok: false, error });
        }
      }
      if (again.length === 0) return;

      const throttled = again.some((entry) => entry.error.status === 429);
      if (!(await waits.beforeRetry(round, again.map((entry) => entry.retryAfter), throttled))) {
        for (const entry of again) outcomes.set(entry.request.id, { ok: false, error: entry.error });
        return;
      }
      pending = again.map((entry) => entry.request);
    }
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

function readBatchResponses(
  body: unknown,
  requestPath: string,
): Map<string, { status: number; headers: Record<string, string>; body: unknown }> {
  const responses = (body as { responses?: unknown } | null)?.responses;
  if (!Array.isArray(responses)) {
    throw new GraphError({ kind: 'malformed-response', message: 'the $batch response has no "responses" array', method: 'POST', path: requestPath, attempts: 1 });
  }
  const byId = new Map<string, { status: number; headers: Record<string, string>; body: unknown }>();
  for (const entry of responses as Array<Record<string, unknown>>) {
    if (typeof entry?.id !== 'string' || typeof entry.status !== 'number') continue;
    const headers: Record<string, string> = {};
    if (entry.headers && typeof entry.headers === 'object') {
      for (const [name, value] of Object.entries(entry.headers as Record<string, unknown>)) {
        if (typeof value === 'string') headers[name.toLowerCase()] = value;
      }
    }
    // Graph: ids are "not case-sensitive"; responses "may come back in any order".
    byId.set(entry.id.toLowerCase(), { status: entry.status, headers, body: entry.body });
  }
  return byId;
}
