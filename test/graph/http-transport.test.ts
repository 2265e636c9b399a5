import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ByteBudget, MAX_BODY_BYTES, createHttpTransport } from '../../src/graph/http-transport.js';

/** A loopback server answering each path with the gzip bytes registered for it, with 200 or the status registered for it. */
const bodies = new Map<string, Buffer>();
const statuses = new Map<string, number>();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = bodies.get(req.url ?? '');
    if (!body) return void res.writeHead(404).end();
    // A little later each, so that the requests are all in flight together.
    setTimeout(() => res.writeHead(statuses.get(req.url ?? '') ?? 200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(body), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

/** A page of about `megabytes` MB of JSON, gzip-compressed. */
function page(megabytes: number): Buffer {
  const record = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', deviceName: 'PC-0001', notes: 'x'.repeat(200) });
  const count = Math.ceil((megabytes * 1024 * 1024) / (record.length + 1));
  return gzipSync(`{"value":[${Array.from({ length: count }, () => record).join(',')}]}`);
}

/** The same gzip body with another size in its trailer (the last four bytes, RFC 1952). */
function withStatedSize(gzipped: Buffer, size: number): Buffer {
  const copy = Buffer.from(gzipped);
  copy.writeUInt32LE(size, copy.length - 4);
  return copy;
}

const get = (path: string) => ({ method: 'GET' as const, url: new URL(`${base}${path}`), headers: {}, timeoutMs: 10_000 });

/** A transport for one test, closed after it whatever happened. */
async function withTransport(options: Parameters<typeof createHttpTransport>[0], use: (transport: ReturnType<typeof createHttpTransport>) => Promise<void>): Promise<void> {
  const transport = createHttpTransport(options);
  try {
    await use(transport);
  } finally {
    await transport.close();
  }
}

describe('inflating answers', () => {
  it('holds inflated bytes across requests to its budget, and every answer still arrives whole', async () => {
    await withTransport({ inflateBudgetBytes: 2.5 * 1024 * 1024 }, async (transport) => {
      for (let index = 0; index < 6; index++) bodies.set(`/page-${index}`, page(1));
      const answers = await Promise.all(Array.from({ length: 6 }, (_, index) => transport.send(get(`/page-${index}`))));
      for (const answer of answers) expect((JSON.parse(answer.body) as { value: unknown[] }).value.length).toBeGreaterThan(1000);
      // Two 1 MB pages at a time fit in 2.5 MB; a third waits.
      expect(transport.inflating.peak).toBeGreaterThan(1024 * 1024);
      expect(transport.inflating.peak).toBeLessThanOrEqual(2.5 * 1024 * 1024);
      expect(transport.inflating.inUse).toBe(0);
    });
  });

  it('reserves for a tiny answer what it can inflate to, not the whole cap', async () => {
    await withTransport({}, async (transport) => {
      // gzip adds 18 bytes: an empty page is larger compressed than plain, and its trailer says so.
      bodies.set('/empty', gzipSync('{"value":[]}'));
      expect((await transport.send(get('/empty'))).body).toBe('{"value":[]}');
      expect(transport.inflating.peak).toBeLessThan(64 * 1024);
    });
  });

  it('refuses, before inflating it, an answer whose gzip trailer says it is larger than any Graph page', async () => {
    await withTransport({}, async (transport) => {
      bodies.set('/bomb', withStatedSize(page(0.01), MAX_BODY_BYTES + 1));
      await expect(transport.send(get('/bomb'))).rejects.toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('would inflate to more than') });
      expect(transport.inflating.peak).toBe(0);
    });
  });

  it('keeps the status of an error answer whose trailer states more than any Graph page, and inflates none of it', async () => {
    await withTransport({}, async (transport) => {
      bodies.set('/failing-bomb', withStatedSize(page(0.01), MAX_BODY_BYTES + 1));
      statuses.set('/failing-bomb', 503);
      expect(await transport.send(get('/failing-bomb'))).toMatchObject({ status: 503, body: '' });
      expect(transport.inflating.peak).toBe(0);
    });
  });

  it('refuses an answer that inflates past the size its trailer stated, rather than holding more than it reserved', async () => {
    await withTransport({}, async (transport) => {
      const honest = page(1);
      bodies.set('/liar', withStatedSize(honest, honest.length + 10));
      await expect(transport.send(get('/liar'))).rejects.toMatchObject({ kind: 'malformed-response', message: expect.stringContaining('does not inflate') });
      expect(transport.inflating.inUse).toBe(0);
    });
  });
});

describe('the inflating budget', () => {
  it('admits in turn, and lets a cancelled waiter leave the line at once, so those behind it go on', async () => {
    const budget = new ByteBudget(1000);
    const first = await budget.take(600);
    const cancel = new AbortController();
    const second = budget.take(600, cancel.signal);
    let thirdAdmitted = false;
    // It would fit, but waits its turn behind the second.
    const third = budget.take(300).then((release) => {
      thirdAdmitted = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdAdmitted).toBe(false);
    cancel.abort(new Error('the load was cancelled'));
    await expect(second).rejects.toThrow('the load was cancelled');
    (await third)();
    expect(thirdAdmitted).toBe(true);
    first();
    expect(budget.usage).toEqual({ inUse: 0, peak: 900 });
    await expect(budget.take(10, AbortSignal.abort(new Error('already cancelled')))).rejects.toThrow('already cancelled');
  });
});
