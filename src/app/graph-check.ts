import { APPLIES_DEVICES_READ } from '../core/applies/reads.js';
import type { GraphReader } from '../core/graph/graph-reader.js';

/**
 * The query of the server's start-up check that the tenant answers: one managed device's id, the
 * least a read can ask for (`$top` and `$select` on the list, learn.microsoft.com/graph/query-parameters),
 * so that a tenant of 500,000 devices is not sent a page of whole device objects to show it is there.
 */
export const GRAPH_CHECK_QUERY = { $top: '1', $select: 'id' } as const;

/**
 * Reads one managed device's id through a declared read (what applies' device list, whose
 * permission the app asks for): it throws the Graph error when the tenant does not answer. Returns
 * how many devices came back (0 or 1), which only says the list could be read.
 */
export async function checkGraphAnswers(graph: Pick<GraphReader, 'get'>): Promise<number> {
  const page = await graph.get<{ value?: unknown[] }>(APPLIES_DEVICES_READ.path, { query: { ...GRAPH_CHECK_QUERY } });
  return Array.isArray(page.value) ? page.value.length : 0;
}
