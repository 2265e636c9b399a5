import type { Group } from '@microsoft/microsoft-graph-types';
import { MAX_BATCH_SIZE, TENANT_SIZE_FROM } from '../graph/graph-reader.js';
import type { BatchOutcome } from '../graph/graph-reader.js';
import { GraphError } from '../graph/graph-error.js';
import { isGraphId } from '../graph/graph-id.js';
import type { GraphReader } from '../graph/graph-reader.js';
import { pathInBatch, selectOf } from '../graph/upstream-read.js';
import { DELETED_GROUP_READ, GROUP_READ } from './reads.js';

/**
 * What is known about one Entra group an assignment or an approval policy points at.
 * `unknown` means the group could not be read (throttled past retries, a 5xx, a missing
 * permission): it is never taken as deleted or empty, so it never makes a finding.
 */
export type GroupLookup =
  | {
      state: 'found';
      id: string;
      displayName: string;
      /** No member in effect: none at all, or only groups that are themselves empty in effect. */
      isEmpty: boolean;
      /** Its whole member list was seen (fewer than the 20 `$expand` returns at most) and holds users only: no device is in it. */
      holdsNoDevice?: boolean;
      /** A dynamic group: empty now, it may fill as its rule matches. */
      dynamic?: boolean;
      /** Empty only through its nested groups, which it has. */
      emptyNested?: boolean;
      /**
       * Set only when the group's own fields prove it is not a plain security group (the table of
       * group types, learn.microsoft.com/graph/api/resources/groups-overview): `groupTypes` holds
       * `Unified`, or `mailEnabled` is true, or `securityEnabled` is false. Absent fields prove nothing.
       */
      notSecurityGroup?: 'microsoft365' | 'mailEnabledSecurity' | 'distribution' | 'notSecurityEnabled';
      /**
       * The members the look-up's `$expand=members($select=id)` listed, by lower-case id, each with
       * the kind its `@odata.type` names: the whole list when there are fewer than 20 (Graph's cap on
       * an expanded list), else the first 20. Kept from the one read already made, so report 7 can
       * tell who two policies' groups both hold (docs/finding-rules.md, "Setting conflicts").
       */
      members?: readonly GroupMember[];
      /** `members` is the group's whole list: fewer than 20 came back, each with its id. */
      membersWhole?: boolean;
    }
  | {
      state: 'deleted';
      id: string;
      /**
       * What the directory's deleted items say of it, when asked (report 2; docs/finding-rules.md,
       * report 2, "Soft-deleted groups"): still restorable, gone for good, or not known because that
       * read failed. Absent when not asked. The 404 of `/groups/{id}` proves the group is gone
       * either way; only this tells whether it can come back.
       */
      recovery?: GroupRecovery;
    }
  | {
      state: 'unknown';
      id: string;
      error: GraphError | { message: string };
      /**
       * Its name, when `/groups/{id}` answered but its members could not be told (a hidden membership,
       * shown to an app without Member.Read.Hidden as no member at all: group-list-members): the group
       * is there and named, only who is in it is unknown.
       */
      displayName?: string;
    };

/** One member of a group as the expanded list names it: a user, a device, a nested group, or another kind of object. */
export type GroupMember = { id: string; type: 'user' | 'device' | 'group' | 'other' };

/** Graph caps an expanded navigation list at 20 items (learn.microsoft.com/graph/query-parameters#expand-parameter): fewer is the whole list. */
export const EXPANDED_MEMBERS_CAP = 20;

const MEMBER_TYPES: Readonly<Record<string, GroupMember['type']>> = {
  '#microsoft.graph.user': 'user',
  '#microsoft.graph.device': 'device',
  '#microsoft.graph.group': 'group',
};

export type GroupRecovery =
  { kind: 'restorable'; displayName: string; deletedDateTime: string; restorableUntil: string } | { kind: 'permanent' } | { kind: 'unknown'; reason: string };

/**
 * "Deleted items remain available to restore for up to 30 days. After 30 days, the items are
 * permanently deleted." (learn.microsoft.com/graph/api/resources/directory). Microsoft gives no finer
 * rule, so the day a soft-deleted group goes for good is its deletion date plus 30 days.
 */
export const DELETED_ITEMS_RETENTION_DAYS = 30;

/**
 * Resolves each distinct group id once, through `$batch`:
 * `GET /groups/{id}?$select=id,displayName,visibility,groupTypes,securityEnabled,mailEnabled&$expand=members($select=id)`.
 * 404 means deleted. An expanded `members` list is capped by Graph (20 items, no nextLink,
 * learn.microsoft.com/graph/query-parameters#expand-parameter), which is enough to tell empty from
 * not empty. A group with hidden membership lists no members to an app without Member.Read.Hidden
 * (learn.microsoft.com/graph/api/group-list-members): none shown is then unknown, never empty. A
 * group whose members are all groups is empty in effect only if they all are, so those are read
 * too, to a depth of three. Keys of the result are lower-case ids.
 */
/** How a group reads in a row: its name, and why it counts as empty when it does. */
export function describeGroup(group: GroupLookup): string {
  if (group.state === 'unknown') return group.displayName ? `${group.displayName} (its members could not be read)` : `group ${group.id} (could not be read)`;
  if (group.state === 'deleted') return describeDeleted(group.id, group.recovery);
  if (!group.isEmpty) return group.displayName;
  return `${group.displayName} (${group.dynamic ? 'empty dynamic group: it may fill' : group.emptyNested ? 'empty: only empty nested groups' : 'empty'})`;
}

function describeDeleted(id: string, recovery: GroupRecovery | undefined): string {
  if (!recovery) return `deleted group ${id}`;
  if (recovery.kind === 'restorable') {
    return `${recovery.displayName} (deleted on ${recovery.deletedDateTime.slice(0, 10)}, restorable until ${recovery.restorableUntil.slice(0, 10)})`;
  }
  if (recovery.kind === 'permanent') return `deleted group ${id} (permanently: not among deleted items)`;
  return `deleted group ${id} (whether it can still be restored could not be checked: ${recovery.reason})`;
}

/** Approver groups (report 5) are looked up without asking deleted items. */
export async function lookUpGroups(graph: GraphReader, groupIds: Iterable<string>): Promise<Map<string, GroupLookup>> {
  const resolver = new GroupResolver(graph, undefined, { deletedItems: false });
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
  /** Found groups whose members are all groups: their members' ids, and how deep they were met. */
  private readonly nested = new Map<string, { memberIds: string[]; depth: number }>();
  private readonly depths = new Map<string, number>();
  private readonly queued = new Set<string>();
  private pending: string[] = [];
  /** Groups found missing, waiting for their deleted-items look-up: sent twenty to a `$batch` call too. */
  private pendingDeleted: string[] = [];
  private readonly batches: Array<Promise<void>> = [];
  /**
   * Distinct users the member lists named, until the tenant is proved of the largest size: Graph's
   * directory limits grow with a tenant's users, so the reader is told as each size is proved
   * (`sizeProved`, the users it starts from) and may pace its directory reads to it
   * (`GraphReader.tenantUsersAtLeast`).
   */
  private readonly usersSeen = new Set<string>();
  private sizeProved = 0;

  /**
   * Once `signal` is aborted (the report failed), no further look-up is sent. Unless `deletedItems`
   * is false, a group `/groups/{id}` answers 404 for is looked up in the directory's deleted items
   * (`GET /directory/deletedItems/{id}`, Group.Read.All; learn.microsoft.com/graph/api/directory-deleteditems-get),
   * through `$batch` as the look-ups are.
   */
  constructor(
    private readonly graph: GraphReader,
    private readonly signal?: AbortSignal,
    private readonly options: { deletedItems?: boolean } = {},
  ) {}

  add(groupIds: Iterable<string>, depth = 0): void {
    if (this.signal?.aborted) return;
    for (const raw of groupIds) {
      const id = raw.toLowerCase();
      if (this.lookups.has(id) || this.queued.has(id)) continue;
      this.depths.set(id, depth);
      if (!isGraphId(id)) {
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
    // Nested groups are added while earlier answers arrive: settle once no batch is left.
    // After an abort nothing more is sent, so what is still pending is left out.
    for (let settled = 0; settled < this.batches.length || ((this.pending.length > 0 || this.pendingDeleted.length > 0) && !this.signal?.aborted);) {
      this.flush();
      this.flushDeleted();
      const waiting = this.batches.slice(settled);
      settled = this.batches.length;
      await Promise.all(waiting);
    }
    for (const id of this.nested.keys()) this.lookups.set(id, this.inEffect(id, new Set()));
    return this.lookups;
  }

  /** A group whose members are all groups, as its nested groups make it: empty, not, or unknown. */
  private inEffect(id: string, path: Set<string>): GroupLookup {
    const lookup = this.lookups.get(id);
    if (!lookup) return { state: 'unknown', id, error: { message: 'not read' } };
    const nested = this.nested.get(id);
    if (!nested || lookup.state !== 'found') return lookup;
    if (nested.depth >= MAX_NESTING)
      return { state: 'unknown', id, error: { message: `its members are groups nested deeper than ${MAX_NESTING} levels` }, displayName: lookup.displayName };
    path.add(id);
    let unknown = false;
    for (const memberId of nested.memberIds) {
      // A group met again on its own path adds no member of its own.
      if (path.has(memberId)) continue;
      const member = this.inEffect(memberId, path);
      if (member.state === 'found' && !member.isEmpty) {
        path.delete(id);
        return { ...lookup, isEmpty: false };
      }
      if (member.state === 'unknown') unknown = true;
    }
    path.delete(id);
    if (unknown) return { state: 'unknown', id, error: { message: 'a group nested in it could not be read' }, displayName: lookup.displayName };
    return { ...lookup, isEmpty: true, emptyNested: true };
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
        ids.map((id, index) => ({
          id: String(index + 1),
          url: `${pathInBatch(GROUP_READ, id)}?$select=${selectOf(GROUP_READ)}&$expand=members($select=id)`,
        })),
        this.signal ? { signal: this.signal } : {},
      );
      const deleted: string[] = [];
      ids.forEach((id, index) => {
        const { lookup, memberGroupIds } = readLookup(id, outcomes.get(String(index + 1)));
        this.lookups.set(id, lookup);
        if (lookup.state === 'found') this.countUsers(lookup.members);
        if (lookup.state === 'deleted') deleted.push(id);
        if (memberGroupIds) {
          const depth = this.depths.get(id) ?? 0;
          this.nested.set(id, { memberIds: memberGroupIds, depth });
          if (depth < MAX_NESTING) this.add(memberGroupIds, depth + 1);
        }
      });
      this.tellUsers();
      if (this.options.deletedItems !== false) {
        this.pendingDeleted.push(...deleted);
        if (this.pendingDeleted.length >= MAX_BATCH_SIZE) this.flushDeleted();
      }
    } catch (error) {
      // Abandoned with the report that failed: these groups stay unread, and say so.
      if (!this.signal?.aborted) throw error;
      for (const id of ids) this.lookups.set(id, { state: 'unknown', id, error: { message: 'not read: the report stopped' } });
    }
  }

  private countUsers(members: readonly GroupMember[] | undefined): void {
    if (this.sizeProved === TENANT_SIZE_FROM.large) return;
    for (const member of members ?? []) if (member.type === 'user') this.usersSeen.add(member.id);
  }

  /** Tells the reader once for each tenant size the users seen so far newly prove. */
  private tellUsers(): void {
    const seen = this.usersSeen.size;
    const proved = [TENANT_SIZE_FROM.large, TENANT_SIZE_FROM.medium].find((from) => seen >= from);
    if (proved === undefined || proved <= this.sizeProved) return;
    this.sizeProved = proved;
    this.graph.tenantUsersAtLeast?.(seen);
    // The largest size proved, no count can raise the pace further.
    if (proved === TENANT_SIZE_FROM.large) this.usersSeen.clear();
  }

  /** Sends the missing groups' deleted-items look-ups, twenty to a `$batch` call; awaited in settle(). */
  private flushDeleted(): void {
    while (this.pendingDeleted.length > 0 && !this.signal?.aborted) {
      const recovery = this.resolveDeleted(this.pendingDeleted.splice(0, MAX_BATCH_SIZE));
      recovery.catch(() => undefined);
      this.batches.push(recovery);
    }
  }

  /**
   * Whether groups `/groups/{id}` did not find are in the directory's deleted items: 200 with a
   * `deletedDateTime` is soft-deleted and restorable for 30 days, 404 is gone for good
   * (learn.microsoft.com/graph/api/directory-deleteditems-get; resources/directory). A read that
   * fails leaves the group deleted (the 404 proved that) and whether it can come back unknown.
   */
  private async resolveDeleted(ids: string[]): Promise<void> {
    let outcomes: Map<string, BatchOutcome> | undefined;
    let failure: string | undefined;
    try {
      outcomes = await this.graph.batchGet(
        ids.map((id, index) => ({ id: String(index + 1), url: `${pathInBatch(DELETED_GROUP_READ, id)}?$select=${selectOf(DELETED_GROUP_READ)}` })),
        this.signal ? { signal: this.signal } : {},
      );
    } catch (error) {
      if (!(error instanceof GraphError) && !this.signal?.aborted) throw error;
      failure = this.signal?.aborted ? 'not read: the report stopped' : describeFailure(error as GraphError);
    }
    ids.forEach((id, index) => {
      const lookup = this.lookups.get(id);
      if (lookup?.state !== 'deleted') return;
      const recovery: GroupRecovery = failure !== undefined ? { kind: 'unknown', reason: failure } : readRecovery(id, outcomes?.get(String(index + 1)));
      this.lookups.set(id, { ...lookup, recovery });
    });
  }
}

function describeFailure(error: GraphError): string {
  if (error.kind === 'malformed-response') return 'Graph sent a malformed answer';
  return error.status !== undefined ? `Graph answered ${error.status}` : `the read failed (${error.kind})`;
}

const DAY_MS = 86_400_000;

function readRecovery(id: string, outcome: BatchOutcome | undefined): GroupRecovery {
  if (!outcome) return { kind: 'unknown', reason: 'Graph gave no answer for it' };
  if (!outcome.ok) return outcome.error.status === 404 ? { kind: 'permanent' } : { kind: 'unknown', reason: describeFailure(outcome.error) };
  const item = outcome.body as { displayName?: unknown; deletedDateTime?: unknown } | null;
  const deleted = typeof item?.deletedDateTime === 'string' ? new Date(item.deletedDateTime) : null;
  if (!deleted || Number.isNaN(deleted.getTime())) return { kind: 'unknown', reason: 'Graph gave no deletion date' };
  return {
    kind: 'restorable',
    displayName: typeof item?.displayName === 'string' && item.displayName ? item.displayName : id,
    deletedDateTime: deleted.toISOString(),
    restorableUntil: new Date(deleted.getTime() + DELETED_ITEMS_RETENTION_DAYS * DAY_MS).toISOString(),
  };
}

/** Nesting read below an assigned group; deeper than this, the group is unknown. */
const MAX_NESTING = 3;

function readLookup(id: string, outcome: BatchOutcome | undefined): { lookup: GroupLookup; memberGroupIds?: string[] } {
  if (!outcome) return { lookup: { state: 'unknown', id, error: { message: 'no answer for this group' } } };
  if (!outcome.ok) return { lookup: outcome.error.status === 404 ? { state: 'deleted', id } : { state: 'unknown', id, error: outcome.error } };
  const group = outcome.body as Group & { members?: unknown };
  // The name Graph sent, kept even when who is in the group cannot be told: a person reads the group by it.
  const named = typeof group?.displayName === 'string' && group.displayName ? { displayName: group.displayName } : {};
  if (!Array.isArray(group?.members)) return { lookup: { state: 'unknown', id, error: { message: 'the group came back without its members' }, ...named } };
  const members = group.members as Array<{ '@odata.type'?: unknown; id?: unknown }>;
  if (members.length === 0 && group.visibility === 'HiddenMembership') {
    return { lookup: { state: 'unknown', id, error: { message: 'its membership is hidden from this app (Member.Read.Hidden)' }, ...named } };
  }
  const dynamic = Array.isArray(group.groupTypes) && group.groupTypes.includes('DynamicMembership');
  const notSecurityGroup = groupKindIfNotSecurity(group);
  // Fewer than Graph's cap of 20 expanded members is the whole list: users only there means no device is in it ("what applies").
  const holdsNoDevice = members.length > 0 && members.length < EXPANDED_MEMBERS_CAP && members.every((member) => member['@odata.type'] === '#microsoft.graph.user');
  const kept = members.flatMap((member): GroupMember[] =>
    typeof member.id === 'string' ? [{ id: member.id.toLowerCase(), type: MEMBER_TYPES[String(member['@odata.type'])] ?? 'other' }] : [],
  );
  const found: GroupLookup = {
    state: 'found',
    id,
    displayName: group.displayName ?? id,
    isEmpty: members.length === 0,
    ...(holdsNoDevice ? { holdsNoDevice } : {}),
    ...(dynamic ? { dynamic } : {}),
    ...(notSecurityGroup ? { notSecurityGroup } : {}),
    members: kept,
    membersWhole: kept.length === members.length && members.length < EXPANDED_MEMBERS_CAP,
  };
  const onlyGroups = members.length > 0 && members.every((member) => member['@odata.type'] === '#microsoft.graph.group' && typeof member.id === 'string');
  return onlyGroups ? { lookup: found, memberGroupIds: members.map((member) => String(member.id).toLowerCase()) } : { lookup: found };
}

/**
 * What a group is when its fields prove it is not a plain security group, per the table of group
 * types (learn.microsoft.com/graph/api/resources/groups-overview): Microsoft 365 groups have
 * `groupTypes` `["Unified"]` (and `securityEnabled` true or false), mail-enabled security groups
 * `mailEnabled` and `securityEnabled` both true, distribution groups `mailEnabled` true and
 * `securityEnabled` false. Fields that did not come back prove nothing: undefined.
 */
function groupKindIfNotSecurity(group: Group): Extract<GroupLookup, { state: 'found' }>['notSecurityGroup'] {
  if (Array.isArray(group.groupTypes) && group.groupTypes.includes('Unified')) return 'microsoft365';
  if (group.mailEnabled === true) return group.securityEnabled === false ? 'distribution' : 'mailEnabledSecurity';
  if (group.securityEnabled === false) return 'notSecurityEnabled';
  return undefined;
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
