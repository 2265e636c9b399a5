import { describe, expect, it } from 'vitest';
import { GraphError } from '../../src/core/graph/graph-error.js';
import { readPages } from '../../src/graph/graph-paging.js';
import type { PagingOptions } from '../../src/graph/graph-paging.js';
import { PREFIX_CHARS, replayingAttempts } from '../support/replaying-transport.js';
import type { CannedAnswer } from '../support/replaying-transport.js';

const ORIGIN = 'https://graph.test';
const DEVICES = '/v1.0/deviceManagement/managedDevices';
const FIRST = new URL(DEVICES, ORIGIN);

const linkTo = (page: number) => `${ORIGIN}${DEVICES}?$skiptoken=page${page}`;

/** A collection page as Graph writes it: the nextLink ahead of `value`. */
function page(ids: string[], nextLink?: string): Record<string, unknown> {
  return { '@odata.context': `${ORIGIN}/v1.0/$metadata#deviceManagement/managedDevices`, ...(nextLink ? { '@odata.nextLink': nextLink } : {}), value: ids.map((id) => ({ id })) };
}

/** `count` pages of `records` records each (`1.1`, `1.2`, … on page 1), each linking to the next. */
function chain(count: number, records = 2): CannedAnswer[] {
  return Array.from({ length: count }, (_, index) => ({
    path: index === 0 ? DEVICES : `${DEVICES}?$skiptoken=page${index + 1}`,
    body: page(
      Array.from({ length: records }, (_, record) => `${index + 1}.${record + 1}`),
      index + 1 < count ? linkTo(index + 2) : undefined,
    ),
  }));
}

function pagesOver(script: CannedAnswer[], options: PagingOptions = {}, first: URL = FIRST) {
  // Paging alone, request by request as the transport sees them: pacing has tests of its own (request-budget.test.ts).
  const { attempts, transport, sleeps } = replayingAttempts(script, { budget: false });
  return { pages: readPages<{ id: string }>(attempts, first, options), transport, sleeps };
}

async function readAll(pages: AsyncGenerator<{ items: Array<{ id: string }>; index: number }>): Promise<string[]> {
  const ids: string[] = [];
  for await (const { items } of pages) ids.push(...items.map((item) => item.id));
  return ids;
}

/** Lets every answer that is due arrive: the transport answers on a timer. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('reading pages', () => {
  it('reads every page in order, one request per page, following each nextLink verbatim', async () => {
    const { pages, transport } = pagesOver(chain(3));
    expect(await readAll(pages)).toEqual(['1.1', '1.2', '2.1', '2.2', '3.1', '3.2']);
    expect(transport.requests.map((request) => request.path)).toEqual([DEVICES, `${DEVICES}?$skiptoken=page2`, `${DEVICES}?$skiptoken=page3`]);
  });

  it('follows the BitLocker spelling odata.nextLink as well', async () => {
    const { pages } = pagesOver([
      { path: DEVICES, body: { 'odata.nextLink': linkTo(2), value: [{ id: '1' }] } },
      { path: `${DEVICES}?$skiptoken=page2`, body: page(['2']) },
    ]);
    expect(await readAll(pages)).toEqual(['1', '2']);
  });

  it('retries a throttled page and still reads each page once', async () => {
    const [first, second] = chain(2) as [CannedAnswer, CannedAnswer];
    const { pages, transport, sleeps } = pagesOver([first, { path: second.path!, status: 429, headers: { 'retry-after': '2' } }, second]);
    expect(await readAll(pages)).toEqual(['1.1', '1.2', '2.1', '2.2']);
    expect(transport.requests).toHaveLength(3);
    expect(sleeps).toEqual([2000]);
  });

  it("sends the caller's headers with every page", async () => {
    const { pages, transport } = pagesOver(chain(2), { headers: { prefer: 'include-unknown-enum-members' } });
    await readAll(pages);
    expect(transport.requests.map((request) => request.headers.prefer)).toEqual(['include-unknown-enum-members', 'include-unknown-enum-members']);
  });
});

describe('reading ahead', () => {
  it('requests the next page while the reader holds the current one, and never a second one ahead', async () => {
    // Pages long enough for their start to be offered early, as Graph's are.
    const script = chain(4, 400);
    expect(JSON.stringify(script[0]!.body).length).toBeGreaterThan(PREFIX_CHARS);
    const { pages, transport } = pagesOver(script);
    expect((await pages.next()).value).toMatchObject({ index: 0 });
    await settle();
    // Page 2 has arrived and named page 3 from its first kilobytes, but the reader has not reached page 2.
    expect(transport.requests).toHaveLength(2);
    expect((await pages.next()).value).toMatchObject({ index: 1 });
    await settle();
    expect(transport.requests).toHaveLength(3);
    await readAll(pages);
    expect(transport.requests).toHaveLength(4);
  });

  it('starts the next page from the first kilobytes of a body still arriving', async () => {
    let release!: () => void;
    const restOfBody = new Promise<void>((resolve) => (release = resolve));
    const bigFirstPage = page(
      Array.from({ length: 400 }, (_, index) => `device-${index}`),
      linkTo(2),
    );
    expect(JSON.stringify(bigFirstPage).length).toBeGreaterThan(PREFIX_CHARS);
    const { pages, transport } = pagesOver([
      { path: DEVICES, body: bigFirstPage, restOfBody },
      { path: `${DEVICES}?$skiptoken=page2`, body: page(['last']) },
    ]);
    const first = pages.next();
    await settle();
    // Page 1 is still arriving, and page 2 is on its way already.
    expect(transport.requests.map((request) => request.path)).toEqual([DEVICES, `${DEVICES}?$skiptoken=page2`]);
    release();
    expect((await first).value?.items).toHaveLength(400);
    expect(await readAll(pages)).toEqual(['last']);
    expect(transport.requests).toHaveLength(2);
  });

  it("stops with the signal's reason and sends nothing more once it aborts", async () => {
    const controller = new AbortController();
    const { pages, transport } = pagesOver(
      chain(3).map((answer) => ({ ...answer, delayMs: 10 })),
      { signal: controller.signal },
    );
    await pages.next();
    controller.abort(new Error('the other source failed'));
    await expect(pages.next()).rejects.toThrow('the other source failed');
    await settle();
    expect(transport.requests).toHaveLength(2);
  });
});

describe('nextLinks that are not followed', () => {
  it('refuses a nextLink to another origin as malformed, and sends nothing there, even read ahead', async () => {
    const bigFirstPage = page(
      Array.from({ length: 400 }, (_, index) => `device-${index}`),
      `https://graph.example.net${DEVICES}?$skiptoken=x`,
    );
    const { pages, transport } = pagesOver([{ path: DEVICES, body: bigFirstPage }]);
    const failure = await readAll(pages).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GraphError);
    expect(failure).toMatchObject({ kind: 'malformed-response', path: DEVICES, message: expect.stringContaining('graph.example.net') });
    expect(transport.requests.map((request) => request.url.origin)).toEqual([ORIGIN]);
  });

  it('refuses a nextLink to another resource on the same origin', async () => {
    const { pages, transport } = pagesOver([{ path: DEVICES, body: page(['1'], `${ORIGIN}/v1.0/deviceManagement/deviceConfigurations?$skiptoken=x`) }]);
    await expect(readAll(pages)).rejects.toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('another resource') });
    expect(transport.requests).toHaveLength(1);
  });

  it("follows a policy's settings whose nextLink writes the policy's key in parentheses, sending it as a path segment", async () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const settings = `/beta/deviceManagement/configurationPolicies/${id}/settings`;
    const { pages, transport } = pagesOver(
      [
        { path: settings, body: page(['1'], `${ORIGIN}/beta/deviceManagement/configurationPolicies('${id}')/settings?$skiptoken=page2`) },
        { path: `${settings}?$skiptoken=page2`, body: page(['2']) },
      ],
      {},
      new URL(settings, ORIGIN),
    );
    expect(await readAll(pages)).toEqual(['1', '2']);
    expect(transport.requests.map((request) => request.path)).toEqual([settings, `${settings}?$skiptoken=page2`]);
  });

  it('refuses a nextLink that is not an absolute URL', async () => {
    const { pages } = pagesOver([{ path: DEVICES, body: page(['1'], '/v1.0/deviceManagement/managedDevices?$skiptoken=x') }]);
    await expect(readAll(pages)).rejects.toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('not an absolute URL') });
  });

  it('refuses a nextLink that repeats a page already read, which would page for ever', async () => {
    const looping = { path: `${DEVICES}?$skiptoken=page2`, body: page(['2'], linkTo(2)) };
    const { pages } = pagesOver([{ path: DEVICES, body: page(['1'], linkTo(2)) }, looping, looping]);
    const ids: string[] = [];
    const failure = await (async () => {
      for await (const { items } of pages) ids.push(...items.map((item) => item.id));
    })().catch((error: unknown) => error);
    expect(ids).toEqual(['1']);
    expect(failure).toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('repeats a page already read') });
  });
});

describe('malformed pages', () => {
  it('refuses an answer without a value array', async () => {
    const { pages } = pagesOver([{ path: DEVICES, body: { id: 'singleton' } }]);
    await expect(readAll(pages)).rejects.toMatchObject({ kind: 'malformed-response', message: 'the collection response has no "value" array' });
  });

  it('refuses a page whose records are not objects', async () => {
    const { pages } = pagesOver([{ path: DEVICES, body: { value: [{ id: '1' }, 'two'] } }]);
    await expect(readAll(pages)).rejects.toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('a record of the collection is not an object') });
  });

  it('turns a page that is not JSON into a malformed-response error with its status', async () => {
    const { pages, transport } = pagesOver([{ path: DEVICES, body: '{"value":[{"id":"1"},' }]);
    await expect(readAll(pages)).rejects.toMatchObject({ name: 'GraphError', kind: 'malformed-response', status: 200, path: DEVICES });
    expect(transport.requests).toHaveLength(1);
  });
});
