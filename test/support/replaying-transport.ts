import type { HttpRequest, HttpResponse, HttpTransport } from '../../src/graph/http-transport.js';
import { TransportError } from '../../src/graph/http-transport.js';
import type { AccessTokenSource } from '../../src/graph/token-source.js';
import { GraphAttempts } from '../../src/graph/graph-attempts.js';
import type { GraphAttemptsOptions } from '../../src/graph/graph-attempts.js';
import { UpstreamAllowList } from '../../src/graph/upstream-allow-list.js';
import { PRODUCT_READS } from '../../src/core/upstream-reads.js';

/**
 * One canned answer. A request takes the first unused answer whose `path` matches it (an answer
 * without `path` matches any request), so a script can be written in the order requests go out or
 * per resource when several are in flight.
 */
export interface CannedAnswer {
  /** The request's path and query (`/v1.0/x?$top=1`), or its path alone (`/v1.0/x`). */
  path?: string;
  status?: number;
  headers?: Record<string, string>;
  /** Sent as is when a string, as JSON otherwise. */
  body?: unknown;
  /** How long the answer takes; a request whose time-out is shorter fails as a timeout at its time-out. */
  delayMs?: number;
  /**
   * For a 2xx body of at least `PREFIX_CHARS`: the rest of the body arrives when this settles, after
   * its start was offered to `onBodyPrefix`, as the real transport offers it while a page streams in.
   */
  restOfBody?: Promise<unknown>;
  /** No answer: the transport fails as it does for a dropped connection, a hang or a bad body. */
  fails?: TransportError['kind'];
}

/** What the transport was asked. */
export interface ReplayedRequest {
  method: 'GET' | 'POST';
  /** Path and query, e.g. `/v1.0/deviceManagement/managedDevices?$top=1`. */
  path: string;
  url: URL;
  headers: Record<string, string>;
  body: string | undefined;
  /** A JSON request body parsed, e.g. a `$batch` call's sub-requests. */
  json: unknown;
}

/** The real transport offers `onBodyPrefix` its first 4 KiB; a body this long is offered its start. */
export const PREFIX_CHARS = 4096;

/**
 * An `HttpTransport` that answers from a script and records what it was asked, for tests of the
 * Graph client's parts without a network. A request the script has no answer for fails the test
 * with a plain `Error`, which the client passes through instead of retrying.
 */
export class ReplayingTransport implements HttpTransport {
  readonly requests: ReplayedRequest[] = [];
  /** Requests the transport has not answered yet, and the most there ever were at once. */
  inFlight = 0;
  peakInFlight = 0;
  private readonly script: CannedAnswer[];

  constructor(script: readonly CannedAnswer[] = []) {
    this.script = [...script];
  }

  /** Answers not used yet. */
  get unused(): readonly CannedAnswer[] {
    return this.script;
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const path = `${request.url.pathname}${request.url.search}`;
    const json = request.headers['content-type'] === 'application/json' && request.body !== undefined ? JSON.parse(request.body) : undefined;
    this.requests.push({ method: request.method, path, url: request.url, headers: request.headers, body: request.body, json });
    const index = this.script.findIndex((answer) => answer.path === undefined || answer.path === path || answer.path === request.url.pathname);
    if (index < 0) throw new Error(`no canned answer for ${request.method} ${path}`);
    const [answer] = this.script.splice(index, 1) as [CannedAnswer];
    this.inFlight += 1;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    try {
      return await this.answer(answer, request);
    } finally {
      this.inFlight -= 1;
    }
  }

  async close(): Promise<void> {}

  private async answer(answer: CannedAnswer, request: HttpRequest): Promise<HttpResponse> {
    const status = answer.status ?? 200;
    const body = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const delayMs = answer.delayMs ?? 0;
    if (delayMs > request.timeoutMs) {
      await wait(request.timeoutMs, request.signal);
      throw new TransportError('timeout', `${request.method} ${request.url.pathname} timed out after ${request.timeoutMs} ms`);
    }
    await wait(delayMs, request.signal);
    if (answer.fails) throw new TransportError(answer.fails, `${request.method} ${request.url.pathname} failed: ${answer.fails} (scripted)`);
    const success = status >= 200 && status < 300;
    if (request.onBodyPrefix && success && body.length >= PREFIX_CHARS) {
      request.onBodyPrefix(body.slice(0, PREFIX_CHARS));
      if (answer.restOfBody) await abortable(answer.restOfBody, request.signal);
    }
    return { status, headers: Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value])), body };
  }
}

/** A token source that counts: each renewal after `invalidate` hands out the next numbered token. */
export class CountingTokenSource implements AccessTokenSource {
  issued = 0;
  invalidated = 0;
  private current: string | undefined;

  async getToken(): Promise<string> {
    if (this.current === undefined) {
      this.issued += 1;
      this.current = `token-${this.issued}`;
    }
    return this.current;
  }

  invalidate(): void {
    this.invalidated += 1;
    this.current = undefined;
  }
}

/** A wait that an aborted signal ends with its reason, as the real transport rethrows it. */
async function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  await abortable(new Promise((resolve) => setTimeout(resolve, ms)), signal);
}

async function abortable(promise: Promise<unknown>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) {
    await promise;
    return;
  }
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Graph attempts over a script of answers, as the client's tests drive them: the product's
 * allow-list, a counting token source, waits recorded instead of spent and no jitter. `options`
 * adds to or overrides any of it (a retry policy, a clock, a budget).
 */
export function replayingAttempts(script: CannedAnswer[], options: Partial<GraphAttemptsOptions> = {}) {
  const transport = new ReplayingTransport(script);
  const tokens = new CountingTokenSource();
  const sleeps: number[] = [];
  const attempts = new GraphAttempts({
    allowList: new UpstreamAllowList(PRODUCT_READS),
    tokens,
    transport,
    userAgent: 'test',
    sleep: async (ms) => void sleeps.push(ms),
    random: () => 0,
    ...options,
  });
  return { attempts, transport, tokens, sleeps };
}
