import { GraphAttempts, parseJsonAnswer } from './graph-attempts.js';
import type { GraphExchange, RawAnswer } from './graph-attempts.js';
import { GraphError, GraphRequestRefusedError, graphErrorForAnswer } from './graph-error.js';
import type { HttpTransport } from './http-transport.js';
import { isRetryableStatus } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';
import type { AccessTokenSource } from './token-source.js';
import { BATCH_PATH, coveragePath, isAllowedUpstreamPath, selectsSecretFields } from './upstream-allow-list.js';

export type { GraphExchange } from './graph-attempts.js';

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

export interface GraphPage<T> {
  items: T[];
  /** 0 for the first page. */
  index: number;
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

/**
 * Pages of one collection at most: at Graph's page sizes, 20,000 pages are millions of records,
 * far past any tenant these reports read; a chain longer than that is an upstream gone wrong.
 */
export const MAX_PAGES = 20_000;

/** How this service names itself upstream: User-Agent here, `ocp-client-name` / `-version` where asked. */
export const CLIENT_NAME = 'Device Management Health';
export const CLIENT_VERSION = '0.1';
const USER_AGENT = `DeviceManagementHealth/${CLIENT_VERSION}`;

/**
 * A read-only Microsoft Graph client: GET to the specification's paths, paging that stays on the
 * configured origin, `$batch` with per-sub-request retry, and retries that honour `Retry-After`,
 * all under one concurrency limit shared by every report that uses this client. Every request goes
 * through `GraphAttempts`.
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
   * The pages of a collection, one request per page, in order. `@odata.nextLink` is followed
   * verbatim, but only while it stays on the configured origin and the same resource. A page's
   * successor is requested as soon as its link is known, from the first kilobytes of the body when
   * the link comes ahead of `value` (as in Graph's responses), and at most one page runs ahead of
   * the reader. Pages are a collection's critical path, so they go ahead of `$batch` calls waiting
   * for a slot. An aborted `signal` stops the paging with its reason.
   */
  async *pages<T>(path: string, options: RequestOptions = {}): AsyncGenerator<GraphPage<T>> {
    const source: PageSource = {
      send: (url, onBodyPrefix) =>
        this.attempts.send('GET', url, { ...(options.headers ? { headers: options.headers } : {}), onBodyPrefix, priority: 'paging', ...(options.signal ? { signal: options.signal } : {}) }),
      follow: (link, from) => this.followNextLink(link, from),
      signal: options.signal,
    };
    options.signal?.throwIfAborted();
    const first = this.resolve(path, options.query);
    // Links already requested: a nextLink that repeats one would page for ever.
    const requested = new Set([first.href]);
    let next: PageFetch | undefined = new PageFetch(source, first);
    for (let index = 0; next; index += 1) {
      const current: PageFetch = next;
      current.arm();
      const answer = await current.answer;
      options.signal?.throwIfAborted();
      // A page too small for its prefix to be seen on the way arrives whole: read its link now.
      current.offerLink(peekNextLink(answer.text), answer.requestPath);
      if (current.refusal) throw current.refusal;
      const page = parseJsonAnswer(answer) as { value?: unknown };
      answer.text = ''; // the parsed page is what the reader holds from here on
      if (!Array.isArray(page?.value)) {
        throw new GraphError({
          kind: 'malformed-response',
          message: 'the collection response has no "value" array',
          method: 'GET',
          path: answer.requestPath,
          ...(answer.requestId ? { requestId: answer.requestId } : {}),
          clientRequestId: answer.clientRequestId,
          attempts: answer.attempts,
        });
      }
      if (page.value.some((item) => typeof item !== 'object' || item === null || Array.isArray(item))) {
        throw malformedPage(answer, 'a record of the collection is not an object');
      }
      const link = nextLinkOf(page);
      if (link !== undefined) {
        const href = new URL(link, first).href;
        if (requested.has(href)) throw malformedPage(answer, 'its @odata.nextLink repeats a page already read, so paging would never end');
        if (index + 1 >= MAX_PAGES) throw malformedPage(answer, `the collection runs past ${MAX_PAGES.toLocaleString('en-US')} pages`);
        requested.add(href);
      }
      next = current.successorFor(link, answer.requestPath);
      yield { items: page.value as T[], index };
    }
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

  /**
   * A nextLink is data from upstream: one that leaves the configured origin is refused before
   * anything is sent to it, and the page that named it counts as malformed.
   */
  private followNextLink(nextLink: string, from: string): URL {
    const refuse = (reason: string) =>
      new GraphError({ kind: 'malformed-response', message: `refused its @odata.nextLink: ${reason}`, method: 'GET', path: from, attempts: 1 });
    let url: URL;
    try {
      url = new URL(nextLink);
    } catch {
      throw refuse('not an absolute URL');
    }
    if (url.origin !== this.origin) throw refuse(`it leads to ${url.origin}, and paging stays on ${this.origin}`);
    // The next page of a collection is that collection.
    if (url.pathname !== from.split('?')[0]) throw refuse(`it leads to ${url.pathname}, another resource`);
    if (selectsSecretFields(url)) throw refuse('it selects secret fields of an escrow list');
    return url;
  }
}

interface PageSource {
  send(url: URL, onPrefix: (prefix: string) => void): Promise<RawAnswer>;
  follow(link: string, from: string): URL;
  signal: AbortSignal | undefined;
}

/**
 * One collection page in flight. Once the reader has reached it (`arm`), it requests its successor
 * as soon as the successor's link is known, so at most one page waits ahead of the reader.
 */
class PageFetch {
  readonly answer: Promise<RawAnswer>;
  /** A nextLink this client will not follow: thrown when the page is read, before anything is sent to it. */
  refusal: GraphError | undefined;
  private armed = false;
  private offered: { link: string; from: string } | undefined;
  private successor: { link: string; fetch: PageFetch } | undefined;

  constructor(
    private readonly source: PageSource,
    readonly url: URL,
  ) {
    this.answer = source.send(url, (prefix) => this.offerLink(peekNextLink(prefix), `${url.pathname}${url.search}`));
    // Nobody may be left to await a page (the reader stopped or failed); its failure is then not news.
    this.answer.catch(() => undefined);
  }

  arm(): void {
    this.armed = true;
    if (this.offered) this.offerLink(this.offered.link, this.offered.from);
  }

  /** The link to the next page, known early; retried attempts offer it again and are ignored. */
  offerLink(link: string | undefined, from: string): void {
    if (link === undefined) return;
    this.offered ??= { link, from };
    if (!this.armed || this.successor || this.refusal || this.source.signal?.aborted) return;
    try {
      this.successor = { link, fetch: new PageFetch(this.source, this.source.follow(link, from)) };
    } catch (error) {
      if (!(error instanceof GraphError)) throw error;
      this.refusal = error;
    }
  }

  /** The page after this one, given the link the parsed page holds: the early request when they agree. */
  successorFor(link: string | undefined, from: string): PageFetch | undefined {
    if (link === undefined) return undefined;
    if (this.successor?.link === link) return this.successor.fetch;
    return new PageFetch(this.source, this.source.follow(link, from));
  }
}

/**
 * The `@odata.nextLink` of a collection page, read from the part of the body before `"value":`
 * without parsing the page. Only a prefix that is itself a complete set of top-level properties
 * counts; anything else (a nextLink written after `value`, unusual spacing) answers undefined and
 * the caller waits for the full parse.
 */
export function peekNextLink(text: string): string | undefined {
  const valueAt = text.indexOf(',"value":');
  if (valueAt < 0 || valueAt > 16_384) return undefined;
  let head: unknown;
  try {
    head = JSON.parse(`${text.slice(0, valueAt)}}`);
  } catch {
    return undefined;
  }
  return typeof head === 'object' && head !== null ? nextLinkOf(head) : undefined;
}

/**
 * A page's link to the next one. Graph writes `@odata.nextLink`; the BitLocker list's page documents
 * `odata.nextLink` (the OData v4.0 spelling without `@`), so both are read: a link missed would
 * silently drop pages and turn escrowed keys into false gaps.
 */
function nextLinkOf(page: object): string | undefined {
  const record = page as Record<string, unknown>;
  const link = record['@odata.nextLink'] ?? record['odata.nextLink'];
  return typeof link === 'string' && link ? link : undefined;
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

function malformedPage(answer: RawAnswer, problem: string): GraphError {
  return new GraphError({
    kind: 'malformed-response',
    message: `the collection page is unusable: ${problem}`,
    method: 'GET',
    path: answer.requestPath,
    ...(answer.requestId ? { requestId: answer.requestId } : {}),
    clientRequestId: answer.clientRequestId,
    attempts: answer.attempts,
  });
}
