import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { promisify } from 'node:util';
import { gunzip, constants as zlibConstants, gunzipSync } from 'node:zlib';
import { Agent, request } from 'undici';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
  /**
   * Called (once per response) with the start of a 2xx body, its first few kilobytes, while the
   * rest is still arriving: a collection page names its next page there, so the next request can
   * start early. Bodies shorter than that arrive whole and are not offered.
   */
  onBodyPrefix?: (prefix: string) => void;
  /** Abandons the request (a report that failed elsewhere); the transport rethrows its reason. */
  signal?: AbortSignal;
}

/**
 * How much of a body `onBodyPrefix` sees: room for Graph's `@odata.context` and a `@odata.nextLink`
 * with its skip token. A longer head is simply not seen early; the link is read once the page is whole.
 */
const BODY_PREFIX_BYTES = 4096;

const inflate = promisify(gunzip);

/**
 * Compressed bytes inflated for a prefix: deflate expands at most about 1032:1, so 1 KB inflates to
 * at most about 1 MB, and in practice to the several kilobytes that hold the page's head.
 */
const GZIP_PREFIX_BYTES = 1024;

/**
 * No Graph page comes near this (a page of 1,000 managed devices is a few megabytes): an answer
 * larger than it, on the wire or inflated, is refused rather than held and parsed, which would
 * stall every other report on this thread.
 */
export const MAX_BODY_BYTES = 64 * 1024 * 1024;

/**
 * Bytes being inflated and held as text at once, across every request of a transport: six
 * reports loading together must not each hold their largest pages at the same moment. Twice the
 * largest page, so two of those still inflate side by side.
 */
const INFLATE_BUDGET_BYTES = 2 * MAX_BODY_BYTES;

/**
 * What a gzip body will inflate to, to reserve before inflating it: the size its trailer states
 * (ISIZE, RFC 1952 section 2.3.1), which inflating is then held to. A trailer stating less than
 * the compressed size is either a tiny body (gzip adds 18 bytes) or a lie (or a body of several
 * members, whose trailer speaks for the last): the most deflate can expand that many bytes (about
 * 1032 to 1) is reserved for it, within the cap.
 */
function inflatedSize(raw: Buffer): number {
  const stated = raw.length >= 18 ? raw.readUInt32LE(raw.length - 4) : 0;
  return stated >= raw.length ? stated : Math.min(MAX_BODY_BYTES, raw.length * 1032);
}

/** Inflating on libuv's thread pool keeps this thread free for the pages of other reports. */
function inflateBody(raw: Buffer, maxOutputLength: number): Promise<Buffer> {
  // Output chunks near the expected size: the default 16 KB means a callback on this thread per
  // 16 KB inflated, and a fixed 1 MB would be wasted on small answers.
  const chunkSize = Math.min(1024 * 1024, Math.max(64 * 1024, raw.length * 16));
  return inflate(raw, { maxOutputLength, chunkSize });
}

/** A count of bytes in use that waits, first come first served, for room under its limit. */
export class ByteBudget {
  private inUse = 0;
  private highest = 0;
  private readonly waiting: Array<{ bytes: number; admit: (release: () => void) => void; signal: AbortSignal | undefined; onAbort: () => void }> = [];

  constructor(private readonly limit: number) {}

  get usage(): { inUse: number; peak: number } {
    return { inUse: this.inUse, peak: this.highest };
  }

  /**
   * Room for `bytes` (at most the limit); call the answer to give it back. A request cancelled or
   * timed out while it waits leaves the queue at once, with the signal's reason.
   */
  take(bytes: number, signal?: AbortSignal): Promise<() => void> {
    return new Promise((admit, refuse) => {
      if (signal?.aborted) return refuse(signal.reason);
      const waiter = {
        bytes: Math.min(bytes, this.limit),
        admit,
        signal,
        onAbort: () => {
          const index = this.waiting.indexOf(waiter);
          if (index === -1) return;
          this.waiting.splice(index, 1);
          refuse(signal!.reason);
          // The one that left may have been first in line: those behind it may fit now.
          this.admitWaiting();
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiting.push(waiter);
      this.admitWaiting();
    });
  }

  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.inUse + this.waiting[0]!.bytes <= this.limit) {
      const { bytes, admit, signal, onAbort } = this.waiting.shift()!;
      signal?.removeEventListener('abort', onAbort);
      this.inUse += bytes;
      this.highest = Math.max(this.highest, this.inUse);
      let released = false;
      admit(() => {
        if (released) return;
        released = true;
        this.inUse -= bytes;
        this.admitWaiting();
      });
    }
  }
}

/**
 * The start of a body as text. A gzip body is inflated only as far as its first bytes go
 * (`Z_SYNC_FLUSH` stops without an error where the data ends), so the prefix costs microseconds;
 * the whole body is inflated once it is complete.
 */
function bodyPrefix(received: Buffer, gzipped: boolean): string {
  if (!gzipped) return received.subarray(0, BODY_PREFIX_BYTES).toString('utf8');
  try {
    return gunzipSync(received.subarray(0, GZIP_PREFIX_BYTES), { finishFlush: zlibConstants.Z_SYNC_FLUSH }).toString('utf8');
  } catch {
    return '';
  }
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
}

/** The one door to the network, shared by the token source and the Graph client. */
export interface HttpTransport {
  send(request: HttpRequest): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** The network transport, which also tells how much of its inflating budget is in use, and was at most. */
export interface NetworkTransport extends HttpTransport {
  readonly inflating: { inUse: number; peak: number };
}

export interface HttpTransportOptions {
  /**
   * Extra trust anchors (PEM) in addition to the system's, e.g. the embedded simulator's CA in demo
   * mode. Certificate verification itself is never switched off.
   */
  extraCaPem?: string;
  /** Sockets kept per origin; requests beyond it queue in the agent. */
  connectionsPerOrigin?: number;
  /** Bytes inflated and held as text at once across requests (INFLATE_BUDGET_BYTES). */
  inflateBudgetBytes?: number;
}

/** Why a request produced no usable HTTP answer. */
export class TransportError extends Error {
  override readonly name = 'TransportError';
  constructor(
    readonly kind: 'network' | 'timeout' | 'malformed-response',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export function createHttpTransport(options: HttpTransportOptions = {}): NetworkTransport {
  const budget = new ByteBudget(options.inflateBudgetBytes ?? INFLATE_BUDGET_BYTES);
  const agent = new Agent({
    connections: options.connectionsPerOrigin ?? 16,
    keepAliveTimeout: 30_000,
    connect: options.extraCaPem ? { ca: [...systemCaCertificates(), options.extraCaPem] } : {},
  });

  return {
    get inflating() {
      return budget.usage;
    },
    async send(req) {
      // One deadline for the whole exchange: the answer, and any wait for room to inflate it.
      const signal = req.signal ? AbortSignal.any([AbortSignal.timeout(req.timeoutMs), req.signal]) : AbortSignal.timeout(req.timeoutMs);
      try {
        const response = await request(req.url, {
          dispatcher: agent,
          method: req.method,
          // Ask for a compressed body (RFC 9110 content coding): a 1,000-device page is a tenth of
          // its size on the wire. A server that ignores the request answers plain JSON, read as is.
          headers: { 'accept-encoding': 'gzip', ...req.headers },
          body: req.body,
          headersTimeout: req.timeoutMs,
          bodyTimeout: req.timeoutMs,
          signal,
        });
        const gzipped = String(response.headers['content-encoding'] ?? '').toLowerCase() === 'gzip';
        const chunks: Buffer[] = [];
        let size = 0;
        const success = response.statusCode >= 200 && response.statusCode < 300;
        let prefixOffered = false;
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          chunks.push(chunk);
          size += chunk.length;
          if (size > MAX_BODY_BYTES) {
            response.body.destroy();
            throw new TransportError('malformed-response', `the answer is larger than ${MAX_BODY_BYTES / (1024 * 1024)} MiB, which no Graph page is`);
          }
          if (req.onBodyPrefix && success && !prefixOffered && size >= BODY_PREFIX_BYTES) {
            prefixOffered = true;
            req.onBodyPrefix(bodyPrefix(Buffer.concat(chunks, size), gzipped));
          }
        }
        // A request started from the prefix reaches the socket on a later turn of the event loop;
        // give it that turn before milliseconds of inflating and parsing, or it waits for them.
        if (prefixOffered) await new Promise<void>((resolve) => setImmediate(resolve));
        const raw = Buffer.concat(chunks, size);
        let body: string;
        const willInflateTo = gzipped && raw.length > 0 ? inflatedSize(raw) : 0;
        if (willInflateTo > MAX_BODY_BYTES) {
          if (success) throw new TransportError('malformed-response', `the answer would inflate to more than ${MAX_BODY_BYTES / (1024 * 1024)} MiB, which no Graph page is`);
          // An error answer that large is still that error: its status decides, and its body is not read.
          return { status: response.statusCode, headers: lowerCaseHeaders(response.headers), body: '' };
        }
        // Held from before inflating until the text is made: what several large pages at once may weigh.
        const release = willInflateTo > 0 ? await budget.take(willInflateTo, signal) : () => undefined;
        try {
          body = (willInflateTo > 0 ? await inflateBody(raw, willInflateTo) : raw).toString('utf8');
        } catch (error) {
          // An error answer whose body does not inflate is still that error: its status decides.
          if (!success) body = '';
          else
            throw new TransportError(
              'malformed-response',
              `${req.method} ${req.url.origin}${req.url.pathname} sent a gzip body that does not inflate: ${(error as Error).message}`,
              { cause: error },
            );
        } finally {
          release();
        }
        return { status: response.statusCode, headers: lowerCaseHeaders(response.headers), body };
      } catch (error) {
        if (req.signal?.aborted) throw req.signal.reason;
        throw error instanceof TransportError ? error : toTransportError(error, req);
      }
    },
    close: () => agent.close(),
  };
}

function lowerCaseHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function toTransportError(error: unknown, req: HttpRequest): TransportError {
  const code = (error as { code?: unknown; name?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const timedOut = code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT' || name === 'TimeoutError' || name === 'AbortError';
  const what = `${req.method} ${req.url.origin}${req.url.pathname}`;
  return timedOut
    ? new TransportError('timeout', `${what} timed out after ${req.timeoutMs} ms`, { cause: error })
    : new TransportError('network', `${what} failed: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

// Passing `ca` replaces Node's default trust store, so the bundled roots and NODE_EXTRA_CA_CERTS
// (which Node only merges into the default store) are added back explicitly.
function systemCaCertificates(): string[] {
  const roots = [...tls.rootCertificates];
  const extraFile = process.env.NODE_EXTRA_CA_CERTS;
  if (extraFile) {
    try {
      roots.push(readFileSync(extraFile, 'utf8'));
    } catch {
      // Node itself only warns about an unreadable NODE_EXTRA_CA_CERTS; do the same by ignoring it.
    }
  }
  return roots;
}
