import type { LoadFigures } from './load-once.js';

/**
 * The fewest round trips any client could need for the requests this load made (retries of
 * throttled or failed attempts left out): each collection's pages one after another, no more than
 * `concurrency` requests at a time, and `$batch` calls no earlier than the page that names their
 * groups. The largest of those three bounds is the floor.
 */
export function criticalPathRounds(exchanges: ReadonlyArray<Pick<LoadFigures['exchanges'][number], 'method' | 'path' | 'status'>>, concurrency: number): number {
  const needed = exchanges.filter((exchange) => exchange.status !== undefined && ![429, 503, 504].includes(exchange.status));
  const chains = new Map<string, number>();
  let batches = 0;
  for (const exchange of needed) {
    if (exchange.method === 'POST') {
      batches += 1;
      continue;
    }
    // One chain per collection read (path and query, whatever the version segment and page): its
    // pages, and a version fallback, are sequential. The same path with another $expand is another chain.
    const [pathname, query = ''] = exchange.path.split('?');
    const options = query
      .split('&')
      .filter((option) => option && !option.startsWith('$skiptoken='))
      .join('&');
    const resource = `${pathname!.replace(/^\/(v1\.0|beta)/, '')}?${options}`;
    chains.set(resource, (chains.get(resource) ?? 0) + 1);
  }
  const longestChain = Math.max(0, ...chains.values());
  const slots = Math.ceil(needed.length / concurrency);
  const lookups = batches > 0 ? 1 + Math.ceil(batches / concurrency) : 0;
  return Math.max(longestChain, slots, lookups);
}
