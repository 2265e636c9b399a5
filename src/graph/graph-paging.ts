import type { GraphAttempts, RawAnswer } from './graph-attempts.js';
import { parseJsonAnswer } from './graph-attempts.js';
import { GraphError } from '../core/graph/graph-error.js';
import type { GraphPage } from '../core/graph/graph-reader.js';
import type { UpstreamAllowList } from './upstream-allow-list.js';

/**
 * Pages of one collection at most: at Graph's page sizes, 20,000 pages are millions of records,
 * far past any tenant these reports read; a chain longer than that is an upstream gone wrong.
 */
export const MAX_PAGES = 20_000;

export interface PagingOptions {
  headers?: Record<string, string>;
  /** Stops the paging between pages, and any page in flight, with the signal's reason. */
  signal?: AbortSignal;
}

/**
 * The pages of the collection at `first`, one request per page, in order. `@odata.nextLink` is
 * followed verbatim, but only while it stays on the origin of `first` and the same resource. A
 * page's successor is requested as soon as its link is known, from the first kilobytes of the body
 * when the link comes ahead of `value` (as in Graph's responses), and at most one page runs ahead
 * of the reader. Pages are a collection's critical path, so they go ahead of `$batch` calls waiting
 * for a slot, and while the collection is paged one slot is kept free of those calls. A page is
 * parsed a turn of the event loop after it arrives, so that pages of other collections read side
 * by side do not wait for it to request their next page.
 */
export async function* readPages<T>(attempts: GraphAttempts, first: URL, options: PagingOptions = {}): AsyncGenerator<GraphPage<T>> {
  const { headers, signal } = options;
  const source: PageSource = {
    send: (url, onBodyPrefix) => attempts.send('GET', url, { ...(headers ? { headers } : {}), onBodyPrefix, priority: 'paging', ...(signal ? { signal } : {}) }),
    follow: (link, from) => followNextLink(link, from, first.origin, attempts.allowList),
    signal,
  };
  // Links already requested: a nextLink that repeats one would page for ever.
  const requested = new Set([first.href]);
  let next: PageFetch | undefined = new PageFetch(source, first);
  const closeChain = attempts.openChain();
  try {
    for (let index = 0; next; index += 1) {
      const current: PageFetch = next;
      current.arm();
      const answer = await current.answer;
      // Parsing a page and the reader's work on it hold the event loop for milliseconds. Let what
      // already waits on it go first (another list's page whose prefix names its next page, whose
      // request would otherwise wait for this one's parsing), then parse.
      await new Promise<void>((resolve) => setImmediate(resolve));
      signal?.throwIfAborted();
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
  } finally {
    closeChain();
  }
}

/**
 * A nextLink is data from upstream: one that leaves `origin` or the collection `from` is refused
 * before anything is sent to it, and the page that named it counts as malformed.
 */
export function followNextLink(nextLink: string, from: string, origin: string, allowList: UpstreamAllowList): URL {
  const refuse = (reason: string) => new GraphError({ kind: 'malformed-response', message: `refused its @odata.nextLink: ${reason}`, method: 'GET', path: from, attempts: 1 });
  let url: URL;
  try {
    url = new URL(nextLink);
  } catch {
    throw refuse('not an absolute URL');
  }
  if (url.origin !== origin) throw refuse(`it leads to ${url.origin}, and paging stays on ${origin}`);
  // The next page of a collection is that collection, whichever of OData's two spellings of a key
  // the link uses; it is then sent in the spelling asked for, which the allow-list knows.
  const path = keyAsSegment(url.pathname);
  if (path !== from.split('?')[0]) throw refuse(`it leads to ${url.pathname}, another resource`);
  url.pathname = path;
  if (allowList.selectsSecretFields(url)) throw refuse('it selects secret fields (the key or credentials of an escrow list, a VPP token)');
  return url;
}

/**
 * `configurationPolicies('<id>')/settings` written as `configurationPolicies/<id>/settings`: OData
 * addresses an entity by its key in parentheses or as a path segment (OData URL conventions,
 * "Key-as-Segment Convention"), and Intune's own tools and portal write the first; a nextLink of a
 * policy's settings may come back that way. Only a GUID key is rewritten.
 */
function keyAsSegment(pathname: string): string {
  return pathname.replace(/\/([A-Za-z]+)\((?:'|%27)([0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12})(?:'|%27)\)/g, '/$1/$2');
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
  /** A nextLink that will not be followed: thrown when the page is read, before anything is sent to it. */
  refusal: GraphError | undefined;
  private armed = false;
  private offered: { link: string; from: string } | undefined;
  private successor: { link: string; fetch: PageFetch } | undefined;

  constructor(
    private readonly source: PageSource,
    url: URL,
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
