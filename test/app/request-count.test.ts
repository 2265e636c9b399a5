import { describe, expect, it } from 'vitest';
import type { GraphPage, GraphReader } from '../../src/core/graph/graph-reader.js';
import { countedReader, countingRequests } from '../../src/app/request-count.js';
import type { RequestCount } from '../../src/app/request-count.js';

/** A reader of two pages of one item each, whose `$batch` calls answer nothing. */
function twoPageReader(): GraphReader {
  return {
    betaCoverage: false,
    coveragePath: (path) => path,
    get: async <T>() => ({}) as T,
    async *pages<T>() {
      yield { items: [1 as T], index: 0 } as GraphPage<T>;
      yield { items: [2 as T], index: 1 } as GraphPage<T>;
    },
    getAll: async () => {
      throw new Error('a counted getAll outside counted work goes to the reader; within it, through pages');
    },
    batchGet: async () => new Map(),
  };
}

describe('counting the requests one piece of work makes', () => {
  it('counts pages, single reads and $batch calls of twenty within the work, its callees included, and nothing outside it', async () => {
    const graph = countedReader(twoPageReader());
    expect(countedReader(graph)).toBe(graph); // wrapped once, counted once
    const count: RequestCount = { requests: 0 };
    const items = await countingRequests(count, async () => {
      await graph.get('/v1.0/one');
      await graph.batchGet(Array.from({ length: 21 }, (_, index) => ({ id: String(index), url: '/groups/x' })));
      // A callee's reads, started here and awaited later, are the work's too.
      const later = (async () => graph.getAll<number>('/v1.0/items'))();
      return later;
    });
    expect(items).toEqual([1, 2]);
    expect(count.requests).toBe(1 + 2 + 2);

    for await (const _page of graph.pages('/v1.0/items')) void _page;
    await expect(graph.getAll('/v1.0/items')).rejects.toThrow(/goes to the reader/);
    expect(count.requests).toBe(5);
  });

  it('counts a load another piece of work started in that work only', async () => {
    const graph = countedReader(twoPageReader());
    const first: RequestCount = { requests: 0 };
    const second: RequestCount = { requests: 0 };
    let shared: Promise<unknown> | undefined;
    const load = () => (shared ??= graph.getAll('/v1.0/items'));
    await Promise.all([countingRequests(first, load), countingRequests(second, load)]);
    expect([first.requests, second.requests]).toEqual([2, 0]);
  });
});
