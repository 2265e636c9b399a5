/**
 * What "what applies" reads of its own (docs/finding-rules.md, "What applies"): the managed devices,
 * the members of the groups the assignments name and of the groups nested in them, and the names of
 * those nested groups. Every read goes through the Graph port and is one of the declarations in
 * `reads.ts` (its path and its `$select`), or a group look-up report 2 declares. The assignments
 * are report 2's records, handed in by the caller, which shares report 2's load rather than make a
 * second one (docs/architecture.md, "Loading once for everyone").
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { lookUpGroups } from '../directory/group-lookup.js';
import type { GroupLookup } from '../directory/group-lookup.js';
import { errorText } from '../error-text.js';
import { isGraphId } from '../graph/graph-id.js';
import { MAX_BATCH_SIZE } from '../graph/graph-reader.js';
import type { BatchOutcome, GraphReader } from '../graph/graph-reader.js';
import type { AssignmentRecords } from '../reports/assignment-hygiene/load.js';
import { MAX_NESTING_DEPTH } from './derive.js';
import type { GroupMembers } from './derive.js';
import { APPLIES_DEVICE_FIELDS, APPLIES_DEVICES_READ, APPLIES_GROUP_MEMBERS_READ } from './reads.js';
import type { DeviceRecord } from './resolve.js';

/** Held by the compiler to the `managedDevice` type: a field Graph does not declare does not compile. */
const DEVICE_FIELDS: readonly (keyof Graph.ManagedDevice)[] = APPLIES_DEVICE_FIELDS;

/** Members are read for at most this many groups per load; past it, a group is unknown, never "not a member". */
export const MAX_GROUPS_READ = 6000;
/** Graph's largest page for a member list (`$top` up to 999, learn.microsoft.com/graph/api/group-list-members). */
const MEMBERS_PAGE = 999;

/**
 * The member read's version and its path relative to it: a `$batch` call's sub-requests name their
 * URL relative to the version the call is posted to (learn.microsoft.com/graph/json-batching).
 */
const MEMBERS_VERSION = APPLIES_GROUP_MEMBERS_READ.path.startsWith('/beta/') ? 'beta' : 'v1.0';
const MEMBERS_RELATIVE_PATH = APPLIES_GROUP_MEMBERS_READ.path.slice(`/${MEMBERS_VERSION}`.length);
const MEMBERS_SELECT = APPLIES_GROUP_MEMBERS_READ.select.join(',');

/** What one load reads for "what applies": report 2's assignments, the managed devices and the groups' members. */
export interface AppliesReads {
  assignments: AssignmentRecords;
  devices: DeviceRecord[];
  /** Members of every group read (those assignments name and those nested in them), by lower-case id, with their names. */
  members: Map<string, GroupMembers>;
}

/**
 * Reads the managed devices while the assignments arrive (`assignments`, report 2's records), then the
 * members of the groups they name, nesting included, and the names of nested groups. A failure of
 * the assignments or the devices is thrown (the question cannot be answered); a group that cannot be
 * read is unknown, never "no members".
 */
export async function loadAppliesReads(graph: GraphReader, assignments: Promise<AssignmentRecords>): Promise<AppliesReads> {
  // Both are awaited together, so that a failure of either is this load's, and neither is left unhandled.
  const [records, devices] = await Promise.all([assignments, readDevices(graph)]);
  const assigned = records.objects.flatMap((object) =>
    (object.targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId] : [])),
  );
  const members = await readMembers(graph, new Set(assigned));
  // Names of the groups read: those the assignments name came with report 2's look-ups; nested
  // ones are looked up the same way (`GET /groups/{id}`, twenty to a `$batch` call).
  const lookups = new Map<string, GroupLookup>();
  for (const lookup of records.groups.values()) lookups.set(lookup.id.toLowerCase(), lookup);
  const unnamed = [...members.keys()].filter((id) => lookups.get(id)?.state !== 'found' && isGraphId(id));
  if (unnamed.length > 0)
    for (const lookup of (await lookUpGroups(graph, unnamed)).values())
      if (lookup.state === 'found' || !lookups.has(lookup.id.toLowerCase())) lookups.set(lookup.id.toLowerCase(), lookup);
  for (const [id, group] of members) {
    const lookup = lookups.get(id);
    const displayName = lookup?.state === 'found' ? lookup.displayName : (group.displayName ?? null);
    members.set(id, hiddenAsUnknown({ ...group, displayName } as GroupMembers, lookup));
  }
  return { assignments: records, devices, members };
}

/**
 * A member list that came back empty is unknown when the group's look-up could not confirm it
 * (report 2's rule, src/core/directory/group-lookup.ts): a group with hidden membership lists no
 * members to an app without Member.Read.Hidden (learn.microsoft.com/graph/api/group-list-members),
 * so "no members" there may be "members not shown".
 */
function hiddenAsUnknown(group: GroupMembers, lookup: GroupLookup | undefined): GroupMembers {
  if (group.state !== 'read' || group.userIds.size > 0 || group.deviceIds.size > 0 || group.groupIds.length > 0) return group;
  if (lookup?.state !== 'unknown') return group;
  const why = 'message' in lookup.error && typeof lookup.error.message === 'string' ? lookup.error.message : errorText(lookup.error);
  return { state: 'unknown', id: group.id, displayName: group.displayName, reason: `it lists no members to this app, which does not prove it has none: ${why}` };
}

async function readDevices(graph: GraphReader): Promise<DeviceRecord[]> {
  return graph.getAll<Pick<Graph.ManagedDevice, (typeof APPLIES_DEVICE_FIELDS)[number]>, DeviceRecord>(
    graph.coveragePath(APPLIES_DEVICES_READ.path),
    { query: { $select: DEVICE_FIELDS.join(',') } },
    (item) => ({
      id: String(item.id ?? ''),
      deviceName: item.deviceName ?? null,
      userId: item.userId || null,
      userPrincipalName: item.userPrincipalName || null,
      azureADDeviceId: item.azureADDeviceId ?? null,
      operatingSystem: item.operatingSystem || null,
      properties: {
        deviceName: item.deviceName ?? null,
        manufacturer: item.manufacturer ?? null,
        model: item.model ?? null,
        osVersion: item.osVersion ?? null,
        // Filters' `deviceOwnership` is Corporate or Personal (filters-device-properties); the managed device says company or personal.
        deviceOwnership: item.managedDeviceOwnerType === 'company' ? 'Corporate' : item.managedDeviceOwnerType === 'personal' ? 'Personal' : null,
        enrollmentProfileName: item.enrollmentProfileName ?? null,
      },
    }),
  );
}

/**
 * The direct members of every group the assignments name, and of the groups nested in them to
 * `MAX_NESTING_DEPTH`: first pages twenty to a `$batch` call, further pages one request each.
 */
async function readMembers(graph: GraphReader, start: ReadonlySet<string>): Promise<Map<string, GroupMembers>> {
  const members = new Map<string, GroupMembers>();
  let level = [...start];
  for (let depth = 0; depth <= MAX_NESTING_DEPTH && level.length > 0; depth += 1) {
    const next: string[] = [];
    for (let index = 0; index < level.length; index += MAX_BATCH_SIZE) {
      const chunk = level.slice(index, index + MAX_BATCH_SIZE).filter((id) => !members.has(id));
      const readable = chunk.filter((id) => isGraphId(id) && members.size < MAX_GROUPS_READ);
      for (const id of chunk) {
        if (!readable.includes(id))
          members.set(id, {
            state: 'unknown',
            id,
            displayName: null,
            reason: isGraphId(id) ? `more than ${MAX_GROUPS_READ} groups would have to be read` : 'its id is not a group id',
          });
      }
      if (readable.length === 0) continue;
      const outcomes = await graph.batchGet(
        readable.map((id, position) => ({ id: String(position + 1), url: `${MEMBERS_RELATIVE_PATH.replace('{id}', id)}?$select=${MEMBERS_SELECT}&$top=${MEMBERS_PAGE}` })),
        { version: MEMBERS_VERSION },
      );
      for (const [position, id] of readable.entries()) {
        const group = await readGroup(graph, id, outcomes.get(String(position + 1)));
        members.set(id, group);
        if (group.state === 'read') next.push(...group.groupIds.filter((nested) => !members.has(nested)));
      }
    }
    level = [...new Set(next)];
  }
  return members;
}

type MemberItem = { '@odata.type'?: unknown; id?: unknown };

async function readGroup(graph: GraphReader, id: string, outcome: BatchOutcome | undefined): Promise<GroupMembers> {
  if (!outcome) return { state: 'unknown', id, displayName: null, reason: 'Graph gave no answer for it' };
  if (!outcome.ok) {
    const status = outcome.error.status;
    // A group the directory no longer has (404) reaches no one: what names it applies to nobody through it.
    if (status === 404) return { state: 'read', id, displayName: `deleted group ${id}`, userIds: new Set(), deviceIds: new Set(), groupIds: [] };
    return { state: 'unknown', id, displayName: null, reason: status !== undefined ? `Graph answered ${status}` : errorText(outcome.error) };
  }
  const body = outcome.body as { value?: unknown; '@odata.nextLink'?: unknown } | null;
  if (!Array.isArray(body?.value)) return { state: 'unknown', id, displayName: null, reason: 'Graph sent a malformed member list' };
  let items = body.value as MemberItem[];
  if (typeof body['@odata.nextLink'] === 'string') {
    // More than one page: the whole list is read again as pages (the first page twice, once in the batch).
    try {
      items = await graph.getAll<MemberItem>(APPLIES_GROUP_MEMBERS_READ.path.replace('{id}', id), { query: { $select: MEMBERS_SELECT, $top: String(MEMBERS_PAGE) } });
    } catch (error) {
      return { state: 'unknown', id, displayName: null, reason: `its members could not all be read (${errorText(error)})` };
    }
  }
  const userIds = new Set<string>();
  const deviceIds = new Set<string>();
  const groupIds: string[] = [];
  for (const item of items) {
    const memberId = typeof item.id === 'string' ? item.id.toLowerCase() : null;
    if (!memberId) continue;
    // Members come as directoryObject with `@odata.type` (group-list-members); other types (contacts,
    // service principals) are neither a device nor a user and cannot make a policy apply.
    if (item['@odata.type'] === '#microsoft.graph.user') userIds.add(memberId);
    else if (item['@odata.type'] === '#microsoft.graph.device') deviceIds.add(memberId);
    else if (item['@odata.type'] === '#microsoft.graph.group') groupIds.push(memberId);
  }
  return { state: 'read', id, displayName: `group ${id}`, userIds, deviceIds, groupIds };
}
