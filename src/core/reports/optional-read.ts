import { GraphError } from '../graph/graph-error.js';
import type { GraphReader } from '../graph/graph-reader.js';

/**
 * Reads a report makes beside its specification's ones (docs/contract.md, "Upstream reads"): each is
 * optional, so its failure is a value the rows explain ("could not check"), never the report's load
 * error, and a failure elsewhere that stopped it (the load cancelled, a bug) goes on up.
 */
export type OptionalRead<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Why an optional read failed, in words for a row; an abort or anything but a Graph failure is rethrown. */
export function optionalReadFailure(error: unknown, signal: AbortSignal): string {
  if (!(error instanceof GraphError) || signal.aborted) throw error;
  // A malformed answer may carry its 200: name what was wrong with it, not its status.
  if (error.kind === 'malformed-response') return 'Graph sent a malformed answer';
  return error.status !== undefined ? `Graph answered ${error.status}` : `the read failed (${error.kind})`;
}

/** Per-object re-reads at a time: a handful, so a tenant of many such objects does not spend the throttling budget at once. */
export const REREADS_AT_ONCE = 4;

/** `read` for each item, at most `REREADS_AT_ONCE` at a time, the answers in the items' order. */
export async function rereadEach<T, R>(items: readonly T[], read: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await read(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(REREADS_AT_ONCE, items.length) }, worker));
  return results;
}

/**
 * A collection's items from one `$batch` sub-request's answer, and the rest read on from the
 * answer's next link, since a sub-request answers one page (learn.microsoft.com/graph/json-batching):
 * null where the answer has no `value` array; where a later page fails, the items read so far and
 * the error, for the caller to say.
 */
export async function itemsOfBatchAnswer<T>(
  graph: GraphReader,
  body: unknown,
  path: string,
  signal: AbortSignal,
): Promise<{ ok: true; items: T[] } | { ok: false; items: T[]; error: unknown } | null> {
  const page = body as { value?: unknown; '@odata.nextLink'?: unknown } | null;
  if (!Array.isArray(page?.value)) return null;
  const items = [...(page.value as T[])];
  const nextLink = page['@odata.nextLink'];
  if (typeof nextLink === 'string' && nextLink) {
    try {
      for await (const more of graph.pages<T>(path, { after: nextLink, signal })) items.push(...more.items);
    } catch (error) {
      return { ok: false, items, error };
    }
  }
  return { ok: true, items };
}
