import { AsyncLocalStorage } from 'node:async_hooks';
import { MAX_BATCH_SIZE } from '../core/graph/graph-reader.js';
import type { GraphReader, PagesOptions } from '../core/graph/graph-reader.js';

/**
 * The Graph requests one piece of work made ("what applies": `requests` in its answer,
 * docs/contract.md "What applies"), its own reads and those of any load it started, such as report
 * 2's load through the report cache, whose reads go through the cache's loader rather than the
 * question's. The reader is shared by every load, so the count travels with the work's own
 * asynchronous context, as a load's retry listener does (src/graph/retry-listener.ts): a load the
 * work only joined was started by someone else, and its requests are not the work's.
 */
export interface RequestCount {
  requests: number;
}

const counts = new AsyncLocalStorage<RequestCount>();

/** Runs `work`, counting into `count` every request made through a `countedReader` within it. */
export function countingRequests<T>(count: RequestCount, work: () => T): T {
  return counts.run(count, work);
}

/**
 * `graph`, counting its requests into the count of the work under way, if any: one per page, one
 * per single read, one per `$batch` call of twenty. Outside such work it is `graph` unchanged.
 */
export function countedReader(graph: GraphReader): GraphReader {
  // Counted once however often it is wrapped: the composition root wraps the connection's reader for
  // the report loads and "what applies" both.
  if (counted.has(graph)) return graph;
  const reader: GraphReader = {
    get betaCoverage() {
      return graph.betaCoverage;
    },
    get scopeTags() {
      return graph.scopeTags === true;
    },
    coveragePath: (path) => graph.coveragePath(path),
    get: (path, options) => {
      const count = counts.getStore();
      if (count) count.requests += 1;
      return graph.get(path, options);
    },
    pages<T>(path: string, options?: PagesOptions) {
      const count = counts.getStore();
      return count ? countedPages<T>(graph, count, path, options) : graph.pages<T>(path, options);
    },
    getAll: async (path, options, project) => {
      const count = counts.getStore();
      if (!count) return graph.getAll(path, options, project);
      const items = [];
      for await (const page of countedPages(graph, count, path, options)) for (const item of page.items) items.push(project ? project(item as never) : item);
      return items as never;
    },
    batchGet: (requests, options) => {
      const count = counts.getStore();
      if (count) count.requests += Math.ceil(requests.length / MAX_BATCH_SIZE);
      return graph.batchGet(requests, options);
    },
    tenantUsersAtLeast: (users) => graph.tenantUsersAtLeast?.(users),
  };
  counted.add(reader);
  return reader;
}

const counted = new WeakSet<GraphReader>();

async function* countedPages<T>(graph: GraphReader, count: RequestCount, path: string, options?: PagesOptions) {
  for await (const page of graph.pages<T>(path, options)) {
    count.requests += 1;
    yield page;
  }
}
