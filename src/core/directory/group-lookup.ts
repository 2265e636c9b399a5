import type { Group } from '@microsoft/microsoft-graph-types';
import { MAX_BATCH_SIZE } from '../graph/graph-client.js';
import type { BatchOutcome, GraphClient } from '../graph/graph-client.js';
import { GraphError } from '../graph/graph-error.js';

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
  const resolver = new GroupResolver(graph);
  resolver.add(groupIds);
  return resolver.settle();
}

/**
 * Group look-ups that start while ids are still being found: ids go out twenty to a `$batch` call
 * as soon as twenty new ones are known, so a report's look-ups overlap the paging that finds them.
 * Each id is read once however often it is added.
 */
export class GroupResolver {
  private readonly lookups = new Map<string, GroupLookup>();
  private readonly queued = new Set<string>();
  private pending: string[] = [];
  private readonly batches: Array<Promise<void>> = [];

  /** Once `signal` is aborted (the report failed), no further look-up is sent. */
  constructor(
    private readonly graph: GraphClient,
    private readonly signal?: AbortSignal,
  ) {}

  add(groupIds: Iterable<string>): void {
    if (this.signal?.aborted) return;
    for (const raw of groupIds) {
      const id = raw.toLowerCase();
      if (this.lookups.has(id) || this.queued.has(id)) continue;
      if (!GUID.test(id)) {
        // An id that is not a GUID never goes into a URL; the assignment is simply not checkable.
        this.lookups.set(id, { state: 'unknown', id, error: { message: `"${raw}" is not a group id` } });
        continue;
      }
      this.queued.add(id);
      this.pending.push(id);
      if (this.pending.length === MAX_BATCH_SIZE) this.flush();
    }
  }

  /** Every id added so far, resolved; after an abort, only those already sent (the rest are left out). */
  async settle(): Promise<Map<string, GroupLookup>> {
    this.flush();
    await Promise.all(this.batches);
    return this.lookups;
  }

  private flush(): void {
    if (this.pending.length === 0 || this.signal?.aborted) return;
    const ids = this.pending;
    this.pending = [];
    const batch = this.resolve(ids);
    // Awaited in settle(); until then a failure must not surface as an unhandled rejection.
    batch.catch(() => undefined);
    this.batches.push(batch);
  }

  private async resolve(ids: string[]): Promise<void> {
    try {
      const outcomes = await this.graph.batchGet(
        ids.map((id, index) => ({ id: String(index + 1), url: `/groups/${id}?$select=id,displayName&$expand=members($select=id)` })),
        this.signal ? { signal: this.signal } : {},
      );
      ids.forEach((id, index) => this.lookups.set(id, readLookup(id, outcomes.get(String(index + 1)))));
    } catch (error) {
      // Abandoned with the report that failed: these groups stay unread, and say so.
      if (!this.signal?.aborted) throw error;
      for (const id of ids) this.lookups.set(id, { state: 'unknown', id, error: { message: 'not read: the report stopped' } });
    }
  }
}

function readLookup(id: string, outcome: BatchOutcome | undefined): GroupLookup {
  if (!outcome) return { state: 'unknown', id, error: { message: 'no answer for this group' } };
  if (outcome.ok) {
    const group = outcome.body as Group & { members?: unknown };
    if (!Array.isArray(group?.members)) return { state: 'unknown', id, error: { message: 'the group came back without its members' } };
    return { state: 'found', id, displayName: group.displayName ?? id, isEmpty: group.members.length === 0 };
  }
  return outcome.error.status === 404 ? { state: 'deleted', id } : { state: 'unknown', id, error: outcome.error };
}

/**
 * A missing Group.Read.All answers 403 for every group: that is a load error naming 403 (the
 * specification's rule for a missing permission), not a table of "could not check" rows.
 */
export function throwIfGroupsForbidden(groups: Map<string, GroupLookup>): void {
  const lookups = [...groups.values()].filter((lookup) => !(lookup.state === 'unknown' && !(lookup.error instanceof GraphError)));
  if (lookups.length === 0) return;
  const forbidden = lookups.map((lookup) => (lookup.state === 'unknown' && lookup.error instanceof GraphError && lookup.error.status === 403 ? lookup.error : undefined));
  if (forbidden.every((error) => error !== undefined)) throw forbidden[0];
}
