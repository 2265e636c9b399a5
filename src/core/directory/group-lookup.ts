import type { Group } from '@microsoft/microsoft-graph-types';
import type { GraphClient } from '../graph/graph-client.js';
import type { GraphError } from '../graph/graph-error.js';

/**
 * What is known about one Entra group an assignment or an approval policy points at.
 * `unknown` means the group could not be read (throttled past retries, a 5xx, a missing
 * permission): it is never taken as deleted or empty, so it never makes a finding.
 */
export type GroupLookup =
  | { state: 'found'; id: string; displayName: string; isEmpty: boolean }
  | { state: 'deleted'; id: string }
  | { state: 'unknown'; id: string; error: GraphError | { message: string } };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Resolves each distinct group id once, through `$batch`:
 * `GET /groups/{id}?$select=id,displayName&$expand=members($select=id)`.
 * 404 means deleted. An expanded `members` list is capped by Graph (20 items, no nextLink,
 * learn.microsoft.com/graph/query-parameters#expand-parameter), which is enough to tell empty from
 * not empty. Keys of the result are lower-case ids.
 */
export async function lookUpGroups(graph: GraphClient, groupIds: Iterable<string>): Promise<Map<string, GroupLookup>> {
  const lookups = new Map<string, GroupLookup>();
  const toRead = new Set<string>();
  for (const raw of groupIds) {
    const id = raw.toLowerCase();
    if (lookups.has(id) || toRead.has(id)) continue;
    if (!GUID.test(id)) {
      // An id that is not a GUID never goes into a URL; the assignment is simply not checkable.
      lookups.set(id, { state: 'unknown', id, error: { message: `"${raw}" is not a group id` } });
      continue;
    }
    toRead.add(id);
  }
  if (toRead.size === 0) return lookups;

  const ids = [...toRead];
  const outcomes = await graph.batchGet(
    ids.map((id, index) => ({ id: String(index + 1), url: `/groups/${id}?$select=id,displayName&$expand=members($select=id)` })),
  );
  ids.forEach((id, index) => {
    const outcome = outcomes.get(String(index + 1));
    if (!outcome) {
      lookups.set(id, { state: 'unknown', id, error: { message: 'no answer for this group' } });
    } else if (outcome.ok) {
      const group = outcome.body as Group & { members?: unknown };
      if (!Array.isArray(group?.members)) {
        lookups.set(id, { state: 'unknown', id, error: { message: 'the group came back without its members' } });
      } else {
        lookups.set(id, { state: 'found', id, displayName: group.displayName ?? id, isEmpty: group.members.length === 0 });
      }
    } else if (outcome.error.status === 404) {
      lookups.set(id, { state: 'deleted', id });
    } else {
      lookups.set(id, { state: 'unknown', id, error: outcome.error });
    }
  });
  return lookups;
}
