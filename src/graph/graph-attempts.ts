import { randomUUID } from 'node:crypto';
import { setTimeout as sleepFor } from 'node:timers/promises';
import { listenForAbort } from './abort-listener.js';
import { ConcurrencyLimit } from './concurrency-limit.js';
import type { SlotPriority } from './concurrency-limit.js';
import { GraphError, graphErrorForAnswer } from '../core/graph/graph-error.js';
import type { HttpResponse, HttpTransport } from './http-transport.js';
import { TransportError } from './http-transport.js';
import { DEFAULT_RETRY_POLICY, isRetryableStatus, nextRetryDelayMs, parseRetryAfterMs } from './retry-policy.js';
import type { RetryPolicy } from './retry-policy.js';
import { budgetOf, directoryBudgetFor, GRAPH_BUDGETS, RequestBudget } from './request-budget.js';
import type { BudgetCost } from './request-budget.js';
import type { AccessTokenSource } from './token-source.js';
import type { UpstreamAllowList } from './upstream-allow-list.js';
import { tellRetry } from './retry-listener.js';
import type { GraphRetry } from './retry-listener.js';

/** What the client reports about each HTTP exchange: for logs, progress and benchmarks. Never a token. */
export interface GraphExchange {
  method: 'GET' | 'POST';
  path: string;
  status: number | undefined;
  attempt: number;
  durationMs: number;
  requestId: string | undefined;
}

/**
 * What the client reports about each call, its retries included: for telemetry (a dependency per
 * call). The path is its template, every GUID segment `{id}` and no query, so it names no record.
 */
export interface GraphCall {
  method: 'GET' | 'POST';
  pathTemplate: string;
  /** The last answer's status; undefined when no answer came (a network failure). */
  status: number | undefined;
  ok: boolean;
  attempts: number;
  durationMs: number;
  /** Time spent waiting between attempts, and how many answers were 429 (throttled). */
  retryWaitMs: number;
  throttled: number;
}

export interface GraphAttemptsOptions {
  tokens: AccessTokenSource;
  transport: HttpTransport;
  /** Sent on every request: how this service names itself upstream. */
  userAgent: string;
  /** Requests in flight at once across every caller; 8 when not given. */
  maxConcurrency?: number;
  retry?: RetryPolicy;
  requestTimeoutMs?: number;
  /** The paths this client may read, derived from the declared reads (upstream-allow-list.ts). */
  allowList: UpstreamAllowList;
  /** Lets the allow-list take the beta twins of the collections `/v1.0` cuts short. */
  betaCoverage?: boolean;
  /** Lets the allow-list take the beta twins read for their objects' scope tags (the viewer scope is on). */
  scopeTags?: boolean;
  onExchange?: (exchange: GraphExchange) => void;
  /** Sees each call once it ends, with its retries (telemetry's dependency). */
  onCall?: (call: GraphCall) => void;
  /**
   * Paces requests under Graph's per-app limits (request-budget.ts); one is made when not given,
   * `false` sends without pacing (a test of the retries themselves).
   */
  budget?: RequestBudget | false;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface AttemptRequest {
  body?: string;
  headers?: Record<string, string>;
  /** Sees the first kilobytes of a 2xx body while the rest arrives: see `HttpRequest.onBodyPrefix`. */
  onBodyPrefix?: (prefix: string) => void;
  priority?: SlotPriority;
  /** What the request spends of Graph's limits: one unit of its path's budget unless said (a `$batch` call spends one per sub-request). */
  cost?: BudgetCost;
  signal?: AbortSignal;
}

/** A 2xx answer before its JSON is parsed. */
export interface RawAnswer {
  text: string;
  status: number;
  method: 'GET' | 'POST';
  requestPath: string;
  requestId: string | undefined;
  clientRequestId: string;
  attempts: number;
}

type AttemptOutcome = { answer: RawAnswer } | { failure: GraphError; response: HttpResponse | undefined };

/**
 * Every request to Graph goes through here, a single GET, a page or a `$batch` call alike: the
 * allow-list before anything is sent, then per attempt a token, a slot under the one concurrency
 * limit, the transport with its time-out, an `onExchange` report, and the answer mapped to a
 * `GraphError`; retries honour `Retry-After`, and a 401 renews the token once.
 */
export class GraphAttempts {
  private readonly limit: ConcurrencyLimit;
  private readonly budget: RequestBudget | undefined;
  private readonly retry: RetryPolicy;
  private readonly requestTimeoutMs: number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly now: () => number;

  /** What every request is checked against before it is sent; paging and `$batch` check against it too. */
  readonly allowList: UpstreamAllowList;

  constructor(private readonly options: GraphAttemptsOptions) {
    this.allowList = options.allowList;
    this.limit = new ConcurrencyLimit(options.maxConcurrency ?? 8);
    this.retry = options.retry ?? DEFAULT_RETRY_POLICY;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 60_000;
    this.sleep = options.sleep ?? ((ms) => sleepFor(ms));
    this.random = options.random ?? Math.random;
    this.now = options.now ?? Date.now;
    const sleep = options.sleep;
    this.budget = options.budget === false ? undefined : (options.budget ?? new RequestBudget(GRAPH_BUDGETS, this.now, sleep ? (ms) => sleep(ms) : undefined));
  }

  /** The tenant holds at least `count` users: the directory's budget rises to its size's limit (request-budget.ts). */
  tenantUsersAtLeast(count: number): void {
    this.budget?.raise('directory', directoryBudgetFor(count));
  }

  /** One request with its retries. Resolves with the parsed JSON body of a 2xx answer. */
  async sendForJson(method: 'GET' | 'POST', url: URL, request: AttemptRequest = {}): Promise<{ body: unknown; requestPath: string }> {
    const answer = await this.send(method, url, request);
    return { body: parseJsonAnswer(answer), requestPath: answer.requestPath };
  }

  /**
   * One request with its retries. Resolves with the text of a 2xx answer. An aborted `signal` ends
   * it at once, between attempts or during one, with the signal's reason.
   */
  async send(method: 'GET' | 'POST', url: URL, request: AttemptRequest = {}): Promise<RawAnswer> {
    this.allowList.assertAllowed(method, url.pathname, url, { betaCoverage: this.options.betaCoverage === true, scopeTags: this.options.scopeTags === true });
    const clientRequestId = randomUUID();
    const waits = this.retryWaits(request.signal);
    const onCall = this.options.onCall;
    if (!onCall) return this.sendWithRetries(method, url, request, clientRequestId, waits);
    const started = this.now();
    const seen = { status: undefined as number | undefined, attempts: 0, throttled: 0 };
    const report = (ok: boolean) =>
      onCall({
        method,
        pathTemplate: pathTemplate(url.pathname),
        status: seen.status,
        ok,
        attempts: seen.attempts,
        durationMs: this.now() - started,
        retryWaitMs: waits.waited,
        throttled: seen.throttled,
      });
    try {
      const answer = await this.sendWithRetries(method, url, request, clientRequestId, waits, seen);
      report(true);
      return answer;
    } catch (error) {
      report(false);
      throw error;
    }
  }

  private async sendWithRetries(
    method: 'GET' | 'POST',
    url: URL,
    request: AttemptRequest,
    clientRequestId: string,
    waits: RetryWaits,
    seen?: { status: number | undefined; attempts: number; throttled: number },
  ): Promise<RawAnswer> {
    let renewedToken = false;
    for (let attempt = 1; ; attempt += 1) {
      const outcome = await this.attemptOnce(method, url, request, clientRequestId, attempt);
      if (seen) {
        seen.attempts = attempt;
        seen.status = 'answer' in outcome ? outcome.answer.status : outcome.response?.status;
        if (seen.status === 429) seen.throttled += 1;
      }
      if ('answer' in outcome) return outcome.answer;
      const { failure, response } = outcome;
      // An expired or revoked token: get a fresh one once, then let a second 401 stand.
      if (response?.status === 401 && !renewedToken) {
        renewedToken = true;
        this.options.tokens.invalidate();
        continue;
      }
      // A body that cannot be decoded would decode no better a second time.
      if (failure.kind === 'malformed-response' || (response && !isRetryableStatus(response.status))) throw failure;
      const about = { path: failure.path.split('?')[0] ?? failure.path, attempt, status: response?.status };
      if (!(await waits.beforeRetry(attempt, [response?.headers['retry-after']], response?.status === 429, about))) throw failure;
    }
  }

  /** A collection is being paged until the returned close is called (concurrency-limit.ts keeps a slot for its pages). */
  openChain(): () => void {
    return this.limit.openChain();
  }

  /** The waits of one retry loop (a request's attempts, a `$batch` sub-request's rounds), from nothing waited yet. */
  retryWaits(signal: AbortSignal | undefined): RetryWaits {
    return new RetryWaits(this.retry, this.sleep, this.random, this.now, signal);
  }

  private async attemptOnce(method: 'GET' | 'POST', url: URL, request: AttemptRequest, clientRequestId: string, attempt: number): Promise<AttemptOutcome> {
    const { body, headers = {}, onBodyPrefix, priority = 'other', signal } = request;
    const requestPath = `${url.pathname}${url.search}`;
    signal?.throwIfAborted();
    const token = await this.options.tokens.getToken();
    // Every attempt spends its units, a retry too; they are counted from the moment it is sent.
    const reservation = await this.budget?.reserve(request.cost ?? { [budgetOf(url.pathname)]: 1 }, signal);
    const started = this.now();
    let response: HttpResponse;
    try {
      response = await this.limit.run(() => {
        signal?.throwIfAborted();
        reservation?.sent();
        return this.options.transport.send({
          method,
          url,
          headers: {
            ...headers,
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            'user-agent': this.options.userAgent,
            'client-request-id': clientRequestId,
          },
          ...(body === undefined ? {} : { body }),
          ...(onBodyPrefix ? { onBodyPrefix } : {}),
          ...(signal ? { signal } : {}),
          timeoutMs: this.requestTimeoutMs,
        });
      }, priority);
    } catch (error) {
      if (!(error instanceof TransportError)) throw error;
      this.options.onExchange?.({ method, path: requestPath, status: undefined, attempt, durationMs: this.now() - started, requestId: undefined });
      const failure = new GraphError({ kind: error.kind, message: error.message, method, path: requestPath, clientRequestId, attempts: attempt }, { cause: error });
      return { failure, response: undefined };
    } finally {
      reservation?.cancel();
    }
    const requestId = response.headers['request-id'];
    this.options.onExchange?.({ method, path: requestPath, status: response.status, attempt, durationMs: this.now() - started, requestId });
    if (response.status >= 200 && response.status < 300) {
      return { answer: { text: response.body, status: response.status, method, requestPath, requestId, clientRequestId, attempts: attempt } };
    }
    return { failure: graphErrorForAnswer(response, { method, path: requestPath, clientRequestId, attempts: attempt }), response };
  }
}

/**
 * The waits between the attempts of one retry loop: each as long as `Retry-After` says, or the
 * back-off when the answer names none, all within the policy's bounds on attempts and on total
 * waiting. An aborted signal cuts a wait short with its reason.
 */
export class RetryWaits {
  private waitedMs = 0;

  /** Milliseconds waited so far between attempts. */
  get waited(): number {
    return this.waitedMs;
  }

  constructor(
    private readonly policy: RetryPolicy,
    private readonly sleep: (ms: number) => Promise<void>,
    private readonly random: () => number,
    private readonly now: () => number,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Waits before the attempt after `attempt` (counted from 1) and resolves true, or resolves false
   * at once when the loop must give up. `retryAfter`: the `Retry-After` values the failed answers
   * named, of which the longest counts; `throttled`: one of them was a 429.
   */
  async beforeRetry(attempt: number, retryAfter: ReadonlyArray<string | undefined>, throttled: boolean, about?: Omit<GraphRetry, 'waitMs'>): Promise<boolean> {
    const nowMs = this.now();
    const retryAfterMs = retryAfter.reduce<number | undefined>((longest, value) => {
      const ms = parseRetryAfterMs(value, nowMs);
      return ms === undefined ? longest : Math.max(longest ?? 0, ms);
    }, undefined);
    const delayMs = nextRetryDelayMs(this.policy, attempt, this.waitedMs, retryAfterMs, this.random, throttled);
    if (delayMs === undefined) return false;
    // The load that made the request says it is retrying rather than leave its viewer guessing.
    if (about) tellRetry({ ...about, waitMs: delayMs });
    await this.pause(delayMs);
    this.waitedMs += delayMs;
    return true;
  }

  private async pause(ms: number): Promise<void> {
    const signal = this.signal;
    if (!signal) return this.sleep(ms);
    signal.throwIfAborted();
    let stopListening: (() => void) | undefined;
    try {
      await Promise.race([
        this.sleep(ms),
        new Promise<never>((_, reject) => {
          stopListening = listenForAbort(signal, () => reject(signal.reason));
        }),
      ]);
    } finally {
      stopListening?.();
    }
  }
}

export function parseJsonAnswer(answer: RawAnswer): unknown {
  try {
    return JSON.parse(answer.text);
  } catch (error) {
    throw new GraphError(
      {
        kind: 'malformed-response',
        status: answer.status,
        message: `Graph answered ${answer.status} with a body that is not valid JSON`,
        ...(answer.requestId ? { requestId: answer.requestId } : {}),
        method: answer.method,
        path: answer.requestPath,
        clientRequestId: answer.clientRequestId,
        attempts: answer.attempts,
      },
      { cause: error },
    );
  }
}

const GUID_SEGMENT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path as its template: each GUID segment `{id}` (the allow-list lets no other id through, upstream-allow-list.ts). */
export function pathTemplate(pathname: string): string {
  return pathname
    .split('/')
    .map((segment) => (GUID_SEGMENT.test(segment) ? '{id}' : segment))
    .join('/');
}
