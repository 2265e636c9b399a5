import type { RequestOptions } from '../graph/graph-reader.js';
import type { LoadContext } from './report-model.js';

/**
 * Every record of one upstream collection, each projected to what the report keeps as its page
 * arrives (so a large tenant's records do not sit in memory whole), with progress told after every
 * page. Reports read collections through this, so the tab's progress moves the same way for all.
 */
export async function readCollection<T, R>({ graph, onProgress }: LoadContext, source: string, path: string, options: RequestOptions, project: (item: T) => R): Promise<R[]> {
  const records: R[] = [];
  onProgress?.(source, 0);
  for await (const page of graph.pages<T>(path, options)) {
    for (const item of page.items) records.push(project(item));
    onProgress?.(source, records.length);
  }
  return records;
}
