/**
 * What "what applies" reads about the one device, user or group a question names
 * (docs/finding-rules.md, "What applies"): the subject found by what Graph filters on (a managed
 * device by `deviceName` or by id, a user's devices by `userPrincipalName`, a user by id, a group by
 * `displayName` or id), then the groups it is in: a user's `transitiveMemberOf` (its direct groups
 * told from it and the groups above each, as an application may not read a user's `memberOf`
 * without Directory.Read.All), a device's `transitiveMemberOf` and `memberOf` with the optional
 * Device.Read.All, and the groups above them read upwards (`/groups/{id}/memberOf`) to tell each path. Nothing here reads the tenant's device list or an
 * assigned group's members, so a question costs the same at 1,000 devices as at 500,000. Every read
 * goes through the Graph port and is one of the declarations in `reads.ts`, or a group look-up
 * report 2 declares. The assignments are report 2's records, handed in by the caller, which shares
 * report 2's load (docs/architecture.md, "Loading once for everyone").
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { lookUpGroups } from '../directory/group-lookup.js';
import type { GroupLookup } from '../directory/group-lookup.js';
import { errorText } from '../error-text.js';
import { GraphError, graphFailureOnly } from '../graph/graph-error.js';
import { readFilteredOrWhole } from '../graph/filtered-read.js';
import { isGraphId } from '../graph/graph-id.js';
import { MAX_BATCH_SIZE } from '../graph/graph-reader.js';
import type { BatchOutcome, GraphReader } from '../graph/graph-reader.js';
import { betaTwinOf, pathFor, pathInBatch, selectOf } from '../graph/upstream-read.js';
import type { UpstreamRead } from '../graph/upstream-read.js';
import type { AssignmentRecords } from '../reports/assignment-hygiene/records.js';
import { MAX_NESTING_DEPTH } from './object-types.js';
import type { AppliesSubject, GroupMembers } from './entry-types.js';
import {
  APPLIES_DEVICE_DIRECT_GROUPS_READ,
  APPLIES_DEVICE_FIELDS,
  APPLIES_DEVICE_GROUPS_READ,
  APPLIES_DEVICE_READ,
  APPLIES_DEVICE_SCOPE_TAGS_READ,
  APPLIES_DEVICES_READ,
  APPLIES_ENTRA_DEVICE_READ,
  APPLIES_GROUP_PARENTS_READ,
  APPLIES_GROUPS_BY_NAME_READ,
  APPLIES_USER_GROUPS_READ,
} from './reads.js';
import { questionWords, resolveSubject } from './resolve.js';
import { DEVICE_GROUPS_NOT_GRANTED } from './words.js';
import type { DeviceRecord, GroupRecord, Resolution } from './resolve.js';
import { scopeTagIdsOf } from '../viewer-scope/scope-tag-ids.js';

/** Held by the compiler to the `managedDevice` type: a field Graph does not declare does not compile. */
const DEVICE_FIELDS: readonly (keyof Graph.ManagedDevice)[] = APPLIES_DEVICE_FIELDS;

/** Graph's largest page for a membership list: "The default and maximum page sizes are 100 and 999" (user-list-transitivememberof, group-list-memberof). */
const MEMBERSHIP_PAGE = '999';

/**
 * Groups whose parents one question reads at most, to tell the paths: a subject in more groups
 * than this (a user in hundreds of groups) is answered all the same, from Graph's transitive list,
 * each path past what was read said to be through nested groups not read.
 */
export const MAX_PARENT_READS = 200;

/** A managed device with no Entra device id carries this one. */
const NO_ENTRA_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Stands in a group's device members for "which devices it holds was not read": the device asked
 * about may be one of them. derive.ts makes such a group unknown for a device whose Entra object
 * could not be told (`entraObjectId` null), with the subject's `entraUnknownReason`.
 */
export const DEVICES_NOT_READ = 'devices-not-read';

/** What one question read: the assignments (report 2's records), who it names, and the groups that matter to it. */
export interface AppliesReads {
  assignments: AssignmentRecords;
  resolution: Resolution;
  /**
   * For derive.ts, by lower-case id: every assigned group and every group the subject is in, each
   * with the members that matter to the subject (the subject, its primary user, the groups nested
   * on its way), or why that could not be told. A group the subject is not in lists no one.
   */
  members: Map<string, GroupMembers>;
}

type Listed = { id: string; displayName: string | null };
type ListRead = { state: 'read'; groups: Listed[] } | { state: 'notFound' } | { state: 'failed'; reason: string };

/** One member's groups, as read: those it is directly in, all it is in (null when not read), and why not. */
interface Side {
  /** Who is in the groups, as derive's member lists name them. */
  as: { kind: 'user' | 'device' | 'group'; id: string };
  direct: Listed[];
  /** Every group it is in, nested ones included; null when Graph gives no such list for it (a group, to this app). */
  transitive: Listed[] | null;
  /** Why its groups could not be read; then every assigned group it is not known to be in is unknown. */
  failed?: string;
  /**
   * Graph gives this app no list of its direct groups (a user's: user-list-memberof lists only
   * Directory.Read.All and Directory.ReadWrite.All for an application, which the app does not ask
   * for): `direct` is told after the walk from `transitive` and the groups above each (`settleDirect`).
   */
  directFromWalk?: boolean;
  /** Groups of its transitive list whose chain down to it is not known, once the walk is done: each is reached through a step saying so. */
  unchained?: ReadonlySet<string>;
}

/**
 * Finds what `query` names and reads the groups that matter to it. A failure to find the subject
 * (the managed devices or the groups cannot be read) is thrown: the question cannot be answered. A
 * group that could not be read is unknown, never "not a member".
 */
export async function loadAppliesReads(graph: GraphReader, query: string, assignments: AssignmentRecords): Promise<AppliesReads> {
  const wanted = questionWords(query);
  if (!wanted) return { assignments, resolution: resolveSubject(query, [], []), members: new Map() };
  const isId = isGraphId(wanted);
  const quoted = wanted.replace(/'/g, "''");
  const [byName, byUpn, byId, groupsByName, groupById, userGroups] = await Promise.all([
    readDevices(graph, `deviceName eq '${quoted}'`, (device) => sameText(device.deviceName, wanted)),
    wanted.includes('@') ? readDevices(graph, `userPrincipalName eq '${quoted}'`, (device) => sameText(device.userPrincipalName, wanted)) : Promise.resolve([]),
    isId ? readDevice(graph, wanted) : Promise.resolve(null),
    graph.getAll<Listed>(APPLIES_GROUPS_BY_NAME_READ.path, { query: { $filter: `displayName eq '${quoted}'`, $select: selectOf(APPLIES_GROUPS_BY_NAME_READ) } }),
    isId ? lookUpGroups(graph, [wanted]).then((found) => [...found.values()][0]) : Promise.resolve(undefined),
    // A user named by id: their groups, which also tell whether the directory has such a user (404 when not).
    isId ? readList(graph, APPLIES_USER_GROUPS_READ, wanted) : Promise.resolve(undefined),
  ]);
  const devices = new Map<string, DeviceRecord>();
  for (const device of [...byName, ...byUpn, ...(byId ? [byId] : [])]) devices.set(device.id.toLowerCase(), device);
  const groups: GroupRecord[] = groupsByName.flatMap((group) => (group.displayName ? [{ id: group.id, displayName: group.displayName }] : []));
  if (groupById?.state === 'found' && !groups.some((group) => group.id.toLowerCase() === groupById.id.toLowerCase()))
    groups.push({ id: groupById.id, displayName: groupById.displayName });
  // Only a read list proves the user exists; a failed read proves nothing either way.
  const userIds = new Set(userGroups?.state === 'read' ? [wanted.toLowerCase()] : []);
  const resolution = resolveSubject(query, [...devices.values()], groups, userIds);
  // "Nothing is called …" only when every look-up answered: a group or user read that failed may be the very subject.
  if (resolution.kind === 'notFound') {
    const unread = [
      groupById?.state === 'unknown' ? `a group with that id could not be read (${errorText(groupById.error)})` : null,
      userGroups?.state === 'failed' ? `a user with that id could not be read (${userGroups.reason})` : null,
    ].filter((why): why is string => why !== null);
    if (unread.length > 0) throw new Error(`"${wanted}" could not be looked up: ${unread.join('; ')}`);
  }
  if (resolution.kind !== 'found') return { assignments, resolution, members: new Map() };

  const subject = resolution.subject;
  const sides: Side[] = [];
  if (subject.kind === 'user') {
    const known = userGroups && subject.id.toLowerCase() === wanted.toLowerCase() ? userGroups : undefined;
    sides.push(await userSide(graph, subject.id, subject.name, known));
  } else if (subject.kind === 'group') {
    const direct = await readList(graph, APPLIES_GROUP_PARENTS_READ, subject.id);
    sides.push(sideOf({ kind: 'group', id: subject.id }, direct, null, `group ${subject.name}`));
  } else {
    const record = devices.get(subject.id.toLowerCase());
    const [user, device] = await Promise.all([
      subject.primaryUserId && isGraphId(subject.primaryUserId) ? userSide(graph, subject.primaryUserId, subject.primaryUserName) : Promise.resolve(null),
      deviceSide(graph, record?.azureADDeviceId ?? null),
    ]);
    if (user) sides.push(user);
    if (device.side) sides.push(device.side);
    resolution.subject = { ...subject, entraObjectId: device.entraObjectId, ...(device.unknownReason ? { entraUnknownReason: device.unknownReason } : {}) };
  }
  const assigned = new Set(
    assignments.objects.flatMap((object) =>
      (object.targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId.toLowerCase()] : [])),
    ),
  );
  const walk = await walkUp(graph, sides, assigned);
  const settled = sides.map((side) => settleDirect(side, walk));
  return { assignments, resolution, members: membersFor(resolution.subject, settled, walk, assignments) };
}

/**
 * The managed devices a `$filter` names, or, where Graph refuses the filter (400: the list page
 * documents no filterable properties), the list read whole and kept here by `keep`, as report 4 does
 * (`readFilteredOrWhole`): a question then costs the tenant's device list, a page at a time, each
 * page dropped as it is filtered, rather than failing. `keep` is applied to a filtered answer too,
 * since a filter is a hint; it compares as `resolveSubject` does, without case, so it keeps all that
 * can be the subject.
 */
async function readDevices(graph: GraphReader, filter: string, keep: (device: DeviceRecord) => boolean): Promise<DeviceRecord[]> {
  return readDeviceList(graph, graph.coveragePath(APPLIES_DEVICES_READ.path), DEVICE_FIELDS, filter, deviceRecord, (device) => keep(device));
}

/**
 * The managed device list at `path` read through a `$filter` Graph may refuse (`readFilteredOrWhole`),
 * each item made into `T` as its page arrives and kept only when `keep` says so: a whole list is
 * never held.
 */
async function readDeviceList<T>(
  graph: GraphReader,
  path: string,
  select: readonly string[],
  filter: string,
  project: (item: DeviceItem & { roleScopeTagIds?: unknown }) => T,
  keep: (value: T) => boolean,
): Promise<T[]> {
  const $select = select.join(',');
  return readFilteredOrWhole(async (sent) => {
    const kept: T[] = [];
    for await (const page of graph.pages<DeviceItem & { roleScopeTagIds?: unknown }>(path, { query: sent === undefined ? { $select } : { $filter: sent, $select } })) {
      for (const item of page.items) {
        const value = project(item);
        if (keep(value)) kept.push(value);
      }
    }
    return kept;
  }, filter);
}

function sameText(value: string | null, wanted: string): boolean {
  return value !== null && value.toLowerCase() === wanted.toLowerCase();
}

/** A managed device as a viewer limited to scope tags is answered about: its record and its scope tags (null when Graph did not send them). */
export interface TaggedDevice {
  device: DeviceRecord;
  roleScopeTagIds: string[] | null;
}

/**
 * The managed devices a question names, by name or by managed device id, each with its scope tags,
 * for a viewer limited to scope tags (docs/finding-rules.md, "What applies", "For a viewer limited to
 * scope tags"). The tags come in the same requests as the devices, read on beta, the only version
 * that declares `roleScopeTagIds` (learn.microsoft.com/graph/api/resources/intune-devices-manageddevice?view=graph-rest-beta,
 * "List of Scope Tag IDs for this Device instance"), so that whether the viewer may see a device is
 * decided before anything is read that depends on its existence: the requests made are the same
 * for a device outside their scope as for one that does not exist (no oracle by time or by count).
 * Only devices: users and groups carry no scope tags, and such a viewer is answered about devices only.
 */
export async function findTaggedDevices(graph: GraphReader, query: string): Promise<TaggedDevice[]> {
  const wanted = questionWords(query);
  if (!wanted) return [];
  const quoted = wanted.replace(/'/g, "''");
  // A filter is a hint (report 4's WINDOWS_FILTER): each device is checked to be the one named, as resolve.ts does.
  const named = (device: DeviceRecord) => device.id.toLowerCase() === wanted.toLowerCase() || sameText(device.deviceName, wanted);
  const [byName, byId] = await Promise.all([
    // Where Graph refuses the name's filter (400), the list read whole, as an unscoped question's is (`readDevices`).
    readDeviceList(graph, betaTwinOf(APPLIES_DEVICES_READ.path), APPLIES_DEVICES_READ.scopeTagsSelect, `deviceName eq '${quoted}'`, taggedDevice, (entry) => named(entry.device)),
    isGraphId(wanted) ? readTaggedDevice(graph, wanted) : Promise.resolve(null),
  ]);
  const found = new Map<string, TaggedDevice>();
  for (const entry of [...byName, ...(byId && named(byId.device) ? [byId] : [])]) found.set(entry.device.id.toLowerCase(), entry);
  return [...found.values()];
}

/** A managed device read with its scope tags. Not a list of tag ids is not known, never Default (docs/finding-rules.md, "Viewer scope"). */
function taggedDevice(item: DeviceItem & { roleScopeTagIds?: unknown }): TaggedDevice {
  return { device: deviceRecord(item), roleScopeTagIds: scopeTagIdsOf(item.roleScopeTagIds) };
}

async function readTaggedDevice(graph: GraphReader, id: string): Promise<TaggedDevice | null> {
  try {
    return taggedDevice(await graph.get(pathFor(APPLIES_DEVICE_SCOPE_TAGS_READ, id), { query: { $select: selectOf(APPLIES_DEVICE_SCOPE_TAGS_READ) } }));
  } catch (error) {
    if (error instanceof GraphError && error.status === 404) return null;
    throw error;
  }
}

/** A device named by its managed device id; null when Intune has none by that id (404). */
async function readDevice(graph: GraphReader, id: string): Promise<DeviceRecord | null> {
  try {
    return deviceRecord(await graph.get<DeviceItem>(pathFor(APPLIES_DEVICE_READ, id), { query: { $select: DEVICE_FIELDS.join(',') } }));
  } catch (error) {
    if (error instanceof GraphError && error.status === 404) return null;
    throw error;
  }
}

type DeviceItem = Pick<Graph.ManagedDevice, (typeof APPLIES_DEVICE_FIELDS)[number]>;

function deviceRecord(item: DeviceItem): DeviceRecord {
  return {
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
  };
}

type MembershipItem = { '@odata.type'?: unknown; id?: unknown; displayName?: unknown };

/**
 * A membership list (`memberOf`, `transitiveMemberOf`) of one object: its groups only (directory
 * roles and administrative units are not assignment targets), read to its end at 999 a page, with no
 * advanced query (which would need `ConsistencyLevel: eventual`). 404: no such object.
 */
async function readList(graph: GraphReader, read: UpstreamRead, id: string): Promise<ListRead> {
  try {
    const items = await graph.getAll<MembershipItem>(pathFor(read, id), { query: { $select: selectOf(read), $top: MEMBERSHIP_PAGE } });
    return { state: 'read', groups: groupsOf(items) };
  } catch (error) {
    const failure = graphFailureOnly(error);
    if (failure.status === 404) return { state: 'notFound' };
    return { state: 'failed', reason: graphReason(failure) };
  }
}

function groupsOf(items: readonly MembershipItem[]): Listed[] {
  return items.flatMap((item) =>
    item['@odata.type'] === '#microsoft.graph.group' && typeof item.id === 'string'
      ? [{ id: item.id.toLowerCase(), displayName: typeof item.displayName === 'string' ? item.displayName : null }]
      : [],
  );
}

function graphReason(error: unknown): string {
  return error instanceof GraphError && error.status !== undefined ? `Graph answered ${error.status}` : errorText(error);
}

function sideOf(as: Side['as'], direct: ListRead, transitive: ListRead | null, who: string): Side {
  if (direct.state === 'read') return { as, direct: direct.groups, transitive: transitive?.state === 'read' ? transitive.groups : null };
  // 404: the directory has no such object (a primary user since deleted), so it is in no group.
  if (direct.state === 'notFound') return { as, direct: [], transitive: [] };
  return { as, direct: [], transitive: null, failed: `the groups ${who} is in could not be read (${direct.reason})` };
}

/**
 * A user's groups: the transitive list only. Its direct groups are told after the walk, since
 * `GET /users/{id}/memberOf` takes Directory.Read.All for an application
 * (learn.microsoft.com/graph/api/user-list-memberof, "Permissions for another user's direct
 * memberships"), while `transitiveMemberOf` takes Group.Read.All among others (user-list-transitivememberof).
 * `name` (their UPN, as the question or the managed device gave it) is how a failure names them, else their id.
 */
async function userSide(graph: GraphReader, userId: string, name: string | null, transitive?: ListRead): Promise<Side> {
  const all = transitive ?? (await readList(graph, APPLIES_USER_GROUPS_READ, userId));
  const side = sideOf({ kind: 'user', id: userId }, all, all, `user ${name ?? userId}`);
  return all.state === 'read' ? { ...side, direct: [], directFromWalk: true } : side;
}

/**
 * The direct groups of a side Graph gave none for, from its transitive list and the groups above
 * each: a group of the list that is in no other group of the list holds the member directly (a
 * member of a group is in it directly or through a group it is in, which would be in its
 * transitive list too: user-list-transitivememberof). Every other group of the list is reached
 * from those upwards, a chain Graph's lists prove. Told only when the groups above every group of
 * the list were read: otherwise no group is proven direct, and each one is reached through a step
 * saying its chain is not known, never a made-up one.
 */
function settleDirect(side: Side, walk: Walk): Side {
  if (!side.directFromWalk || side.transitive === null) return side;
  const all = side.transitive;
  if (!all.every((group) => walk.parents.has(group.id))) return { ...side, direct: [], unchained: new Set(all.map((group) => group.id)) };
  const inList = new Set(all.map((group) => group.id));
  const above = new Set(all.flatMap((group) => walk.parents.get(group.id) ?? []).filter((id) => inList.has(id)));
  const direct = all.filter((group) => !above.has(group.id));
  // Reached upwards from the direct ones: a group of the list reached from none (a circle of nesting) has no chain that is known.
  const chained = new Set(direct.map((group) => group.id));
  for (let next = [...chained]; next.length > 0;) {
    next = next.flatMap((id) => (walk.parents.get(id) ?? []).filter((parent) => inList.has(parent) && !chained.has(parent)));
    for (const id of next) chained.add(id);
  }
  return { ...side, direct, unchained: new Set(all.filter((group) => !chained.has(group.id)).map((group) => group.id)) };
}

/**
 * The device's own groups, through its Entra device object (the managed device's `azureADDeviceId`
 * is the Entra `deviceId`): read only with Device.Read.All, which the app does not ask for. Without
 * it Graph answers 403, and which device groups hold the device stays unknown, the permission named.
 */
async function deviceSide(graph: GraphReader, deviceId: string | null): Promise<{ side: Side | null; entraObjectId: string | null; unknownReason?: string }> {
  if (!deviceId || deviceId === NO_ENTRA_ID || !isGraphId(deviceId)) {
    return { side: null, entraObjectId: null, unknownReason: 'the managed device names no Entra device id, so which device groups hold it cannot be told' };
  }
  let entra: { id?: unknown };
  try {
    entra = await graph.get<{ id?: unknown }>(pathFor(APPLIES_ENTRA_DEVICE_READ, deviceId), { query: { $select: selectOf(APPLIES_ENTRA_DEVICE_READ) } });
  } catch (error) {
    if (error instanceof GraphError && error.status === 403) {
      return {
        side: null,
        entraObjectId: null,
        unknownReason: DEVICE_GROUPS_NOT_GRANTED,
      };
    }
    if (error instanceof GraphError && error.status === 404) {
      return { side: null, entraObjectId: null, unknownReason: `Entra ID has no device with the device id ${deviceId}, so which device groups hold it cannot be told` };
    }
    return { side: null, entraObjectId: null, unknownReason: `its Entra device could not be read (${graphReason(graphFailureOnly(error))})` };
  }
  const objectId = typeof entra.id === 'string' ? entra.id.toLowerCase() : null;
  if (!objectId) return { side: null, entraObjectId: null, unknownReason: 'Graph sent its Entra device without an id' };
  const [all, direct] = await Promise.all([readList(graph, APPLIES_DEVICE_GROUPS_READ, deviceId), readList(graph, APPLIES_DEVICE_DIRECT_GROUPS_READ, deviceId)]);
  return { side: sideOf({ kind: 'device', id: objectId }, direct, all, 'the device'), entraObjectId: objectId };
}

/** What reading upwards found: each group's parents, the names seen, and where it stopped. */
interface Walk {
  /** The groups directly above each group read, by lower-case id. */
  parents: Map<string, string[]>;
  /** Every group reached from the subject's own groups upwards, with its name. */
  reached: Map<string, string | null>;
  /** Groups whose parents were not read (deeper than MAX_NESTING_DEPTH, or the read failed), with why. */
  stopped: Map<string, string>;
}

/**
 * Reads upwards from the sides' own groups, one level at a time (`/groups/{id}/memberOf`, twenty to a
 * `$batch` call), to MAX_NESTING_DEPTH levels and MAX_PARENT_READS groups, and no further once every
 * assigned group in a side's transitive list is reached: then each path that matters is known. A user
 * (whose direct groups Graph does not list to this app) starts from every group they are in, when one
 * of them is assigned, and costs one level of reads; a user in no assigned group costs none.
 */
async function walkUp(graph: GraphReader, sides: readonly Side[], assigned: ReadonlySet<string>): Promise<Walk> {
  const walk: Walk = { parents: new Map(), reached: new Map(), stopped: new Map() };
  // A side whose direct groups Graph did not list starts from every group it is in, when one of them is assigned: the groups above each tell which are direct.
  const needsAll = (side: Side) => side.directFromWalk === true && (side.transitive ?? []).some((group) => assigned.has(group.id));
  for (const side of sides) {
    for (const group of needsAll(side) ? (side.transitive ?? []) : side.direct) if (!walk.reached.has(group.id)) walk.reached.set(group.id, group.displayName);
  }
  const complete = () =>
    sides.every(
      (side) =>
        side.failed !== undefined ||
        (side.transitive !== null &&
          (needsAll(side)
            ? side.transitive.every((group) => walk.parents.has(group.id) || walk.stopped.has(group.id))
            : side.transitive.every((group) => !assigned.has(group.id) || walk.reached.has(group.id)))),
    );
  let level = [...walk.reached.keys()];
  let read = 0;
  for (let depth = 1; level.length > 0; depth += 1) {
    if (complete()) return walk;
    if (depth > MAX_NESTING_DEPTH || read + level.length > MAX_PARENT_READS) {
      const why = depth > MAX_NESTING_DEPTH ? `nested deeper than ${MAX_NESTING_DEPTH} levels` : `more than ${MAX_PARENT_READS} groups would have to be read`;
      for (const id of level) walk.stopped.set(id, `the groups above it were not read (${why})`);
      return walk;
    }
    read += level.length;
    const next: string[] = [];
    for (let index = 0; index < level.length; index += MAX_BATCH_SIZE) {
      const chunk = level.slice(index, index + MAX_BATCH_SIZE);
      const outcomes = await graph.batchGet(
        chunk.map((id, position) => ({
          id: String(position + 1),
          url: `${pathInBatch(APPLIES_GROUP_PARENTS_READ, id)}?$select=${selectOf(APPLIES_GROUP_PARENTS_READ)}&$top=${MEMBERSHIP_PAGE}`,
        })),
        { version: 'v1.0' },
      );
      for (const [position, id] of chunk.entries()) {
        const parents = await parentsOf(graph, id, outcomes.get(String(position + 1)));
        if (parents.state !== 'read') {
          walk.stopped.set(id, parents.state === 'failed' ? `the groups above it could not be read (${parents.reason})` : 'it is no longer in the directory');
          continue;
        }
        walk.parents.set(
          id,
          parents.groups.map((group) => group.id),
        );
        for (const group of parents.groups) {
          if (walk.reached.has(group.id)) continue;
          walk.reached.set(group.id, group.displayName);
          next.push(group.id);
        }
      }
    }
    level = next;
  }
  return walk;
}

async function parentsOf(graph: GraphReader, id: string, outcome: BatchOutcome | undefined): Promise<ListRead> {
  if (!outcome) return { state: 'failed', reason: 'Graph gave no answer for it' };
  if (!outcome.ok) return outcome.error.status === 404 ? { state: 'notFound' } : { state: 'failed', reason: graphReason(outcome.error) };
  const body = outcome.body as { value?: unknown; '@odata.nextLink'?: unknown } | null;
  if (!Array.isArray(body?.value)) return { state: 'failed', reason: 'Graph sent a malformed list' };
  // More than a page of parents: the whole list is read again as pages.
  if (typeof body['@odata.nextLink'] === 'string') return readList(graph, APPLIES_GROUP_PARENTS_READ, id);
  return { state: 'read', groups: groupsOf(body.value as MembershipItem[]) };
}

/** The groups reached upwards from `direct` through the parents the walk read, `direct` included. */
function reachedFrom(direct: readonly Listed[], walk: Walk): Set<string> {
  const reached = new Set(direct.map((group) => group.id));
  for (let level = [...reached]; level.length > 0;) {
    level = level.flatMap((id) => (walk.parents.get(id) ?? []).filter((parent) => !reached.has(parent)));
    for (const id of level) reached.add(id);
  }
  return reached;
}

/**
 * The member lists derive.ts reads, made from what was read about the subject: each group the
 * subject is in lists the subject (or its primary user, or its device) where it is a direct member,
 * and the groups on the subject's way below it; a group known to hold the subject only through
 * Graph's transitive list, its chain not read, lists a step saying so. Every assigned group the
 * subject is not in lists no one, unless that could not be told: then it is unknown, with why.
 */
function membersFor(subject: AppliesSubject, sides: readonly Side[], walk: Walk, records: AssignmentRecords): Map<string, GroupMembers> {
  const members = new Map<string, { id: string; displayName: string; userIds: Set<string>; deviceIds: Set<string>; groupIds: string[] }>();
  const lookups = new Map<string, GroupLookup>();
  for (const lookup of records.groups.values()) lookups.set(lookup.id.toLowerCase(), lookup);
  const nameOf = (id: string, listed?: string | null) => {
    const lookup = lookups.get(id);
    return nameFromLookup(lookup) ?? listed ?? walk.reached.get(id) ?? `group ${id}`;
  };
  const entry = (id: string, listed?: string | null) => {
    let found = members.get(id);
    if (!found) {
      found = { id, displayName: nameOf(id, listed), userIds: new Set(), deviceIds: new Set(), groupIds: [] };
      members.set(id, found);
    }
    return found;
  };
  const place = (group: ReturnType<typeof entry>, as: Side['as']) => {
    if (as.kind === 'user') group.userIds.add(as.id.toLowerCase());
    else if (as.kind === 'device') group.deviceIds.add(as.id.toLowerCase());
    else if (!group.groupIds.includes(as.id.toLowerCase())) group.groupIds.push(as.id.toLowerCase());
  };
  for (const [child, parents] of walk.parents) for (const parent of parents) if (!entry(parent).groupIds.includes(child)) entry(parent).groupIds.push(child);
  for (const id of walk.reached.keys()) entry(id);
  for (const side of sides) {
    for (const group of side.direct) place(entry(group.id, group.displayName), side.as);
    // In Graph's transitive list but not reached upwards from this side's own groups (a parent read
    // failed, or deeper than the walk; another side's chain reaching it says nothing of this one's):
    // a member, through nested groups whose chain is not known; the step says so. One step a group,
    // holding every side it is known for: a device and its primary user may both be in it that way.
    const chained = reachedFrom(side.direct, walk);
    for (const group of side.transitive ?? []) {
      if (chained.has(group.id) && !side.unchained?.has(group.id)) continue;
      const stepId = `${group.id}/nested`;
      let step = members.get(stepId);
      if (!step) {
        step = {
          id: stepId,
          displayName: 'nested groups not read (a member through them, as Graph lists it; the chain is not known)',
          userIds: new Set<string>(),
          deviceIds: new Set<string>(),
          groupIds: [],
        };
        members.set(stepId, step);
        entry(group.id, group.displayName).groupIds.push(stepId);
      }
      place(step, side.as);
    }
  }
  const result = new Map<string, GroupMembers>();
  for (const [id, group] of members) result.set(id, { state: 'read', ...group });

  // Assigned groups the subject is not known to be in.
  const failed = sides.find((side) => side.failed !== undefined)?.failed;
  const incomplete = sides.some((side) => side.transitive === null) && walk.stopped.size > 0 ? [...walk.stopped.entries()][0] : undefined;
  const deviceUnknown = subject.kind === 'device' && subject.entraObjectId === null;
  for (const object of records.objects) {
    for (const target of object.targets ?? []) {
      if (target.type !== 'include' && target.type !== 'exclude') continue;
      const id = target.groupId.toLowerCase();
      if (result.has(id)) continue;
      const lookup = lookups.get(id);
      const displayName = nameFromLookup(lookup);
      if (lookup?.state === 'deleted') {
        const name = lookup.recovery?.kind === 'restorable' ? `${lookup.recovery.displayName} (deleted)` : `deleted group ${id}`;
        result.set(id, { state: 'read', id, displayName: name, userIds: new Set(), deviceIds: new Set(), groupIds: [] });
      } else if (lookup?.state === 'unknown') {
        // Report 2's look-up could not read it (its membership hidden from this app, a 403, a 5xx): a
        // hidden group is left out of membership lists to an app without Member.Read.Hidden, so its absence proves nothing.
        const why = 'message' in lookup.error && typeof lookup.error.message === 'string' ? lookup.error.message : errorText(lookup.error);
        result.set(id, { state: 'unknown', id, displayName, reason: `whether it holds ${subject.name} cannot be told: ${why}` });
      } else if (failed) {
        result.set(id, { state: 'unknown', id, displayName, reason: failed });
      } else if (incomplete) {
        result.set(id, { state: 'unknown', id, displayName, reason: `${nameOf(incomplete[0])} may be nested in it: ${incomplete[1]}` });
      } else {
        // Report 2's look-up saw its whole member list: empty, or users only, holds no device.
        const emptyForSure = lookup?.state === 'found' && (lookup.isEmpty || lookup.holdsNoDevice === true);
        result.set(id, {
          state: 'read',
          id,
          displayName: displayName ?? `group ${id}`,
          userIds: new Set(),
          deviceIds: new Set(deviceUnknown && !emptyForSure ? [DEVICES_NOT_READ] : []),
          groupIds: [],
        });
      }
    }
  }
  return result;
}

/** A group's name as its look-up read it: found, or read but its members not (a hidden membership); null when no name was read. */
function nameFromLookup(lookup: GroupLookup | undefined): string | null {
  if (lookup?.state === 'found') return lookup.displayName;
  if (lookup?.state === 'unknown') return lookup.displayName ?? null;
  return null;
}
