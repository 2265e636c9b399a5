/**
 * "What applies to this device, this user or this group, and why?" (docs/contract.md, "What
 * applies"): resolves the question, reads what the rules need through the Graph port, and hands the
 * records to the pure rules (src/core/applies). Report 2's assignment load, the managed devices and
 * the members of the groups the assignments name are read once per load and kept as long as a
 * report is kept fresh; each answer counts the Graph requests it made.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { deriveApplies, MAX_NESTING_DEPTH } from '../core/applies/derive.js';
import type { GroupMembers } from '../core/applies/derive.js';
import type { AppliesResult } from '../core/applies/applies-result.js';
import { resolveSubject } from '../core/applies/resolve.js';
import type { DeviceRecord, GroupRecord } from '../core/applies/resolve.js';
import { MAX_BATCH_SIZE } from '../core/graph/graph-reader.js';
import type { BatchOutcome, GraphReader, PagesOptions } from '../core/graph/graph-reader.js';
import { isGraphId } from '../core/graph/graph-id.js';
import { loadAssignments } from '../core/reports/assignment-hygiene/load.js';
import type { AssignmentRecords } from '../core/reports/assignment-hygiene/load.js';
import { errorText } from '../core/error-text.js';
import { lookUpGroups } from '../core/directory/group-lookup.js';

export type { AppliesAnswer, AppliesEntry, AppliesGroup, AppliesSubject, AppliesVerdict, PathStep, AppliedFilter } from '../core/applies/derive.js';
export type { AppliesCandidate } from '../core/applies/resolve.js';

export type { AppliesResult } from '../core/applies/applies-result.js';

/** The managed device fields read (`managedDevice`, Graph v1.0): who it is, its primary user, and what filters read. */
export const DEVICE_FIELDS = [
  'id',
  'deviceName',
  'userId',
  'userPrincipalName',
  'azureADDeviceId',
  'manufacturer',
  'model',
  'osVersion',
  'managedDeviceOwnerType',
  'enrollmentProfileName',
] as const satisfies readonly (keyof Graph.ManagedDevice)[];

export const MANAGED_DEVICES_PATH = '/v1.0/deviceManagement/managedDevices';
/** `GET /groups/{id}/members`: a group's direct members (learn.microsoft.com/graph/api/group-list-members), Group.Read.All. */
export const GROUP_MEMBERS_PATH = '/groups/{id}/members';
/** Members are read for at most this many groups per load; past it, a group is unknown, never "not a member". */
export const MAX_GROUPS_READ = 6000;
/** Graph's largest page for a member list (`$top` up to 999, learn.microsoft.com/graph/api/group-list-members). */
const MEMBERS_PAGE = 999;

interface Loaded {
  at: number;
  records: AssignmentRecords;
  devices: DeviceRecord[];
  members: Map<string, GroupMembers>;
}

export interface AppliesServiceOptions {
  graph: GraphReader;
  /** How long one load's reads answer questions (the reports' freshness, five minutes by default). */
  maxAgeMs: number;
  clock?: () => number;
  log: (line: string) => void;
}

export class AppliesService {
  private loaded: Promise<Loaded> | undefined;
  private loadedAt = 0;

  constructor(private readonly options: AppliesServiceOptions) {}

  async applies(query: string, options: { refresh?: boolean } = {}): Promise<AppliesResult> {
    const counter = countingReader(this.options.graph);
    let data: Loaded;
    try {
      data = await this.load(counter.graph, options.refresh === true);
    } catch (error) {
      this.loaded = undefined;
      return { kind: 'failed', query, words: `The tenant could not be read: ${errorText(error)}`, requests: counter.count() };
    }
    const groups = groupRecords(data);
    const memberUserIds = new Set([...data.members.values()].flatMap((group) => (group.state === 'read' ? [...group.userIds] : [])));
    const resolution = resolveSubject(query, data.devices, groups, memberUserIds);
    if (resolution.kind === 'notFound') return { ...resolution, requests: counter.count() };
    if (resolution.kind === 'ambiguous') return { ...resolution, requests: counter.count() };
    const answer = deriveApplies(resolution.subject, {
      objects: data.records.objects,
      filters: data.records.filters,
      members: data.members,
      groupNames: new Map(groups.map((group) => [group.id.toLowerCase(), group.displayName])),
    });
    return { kind: 'found', answer, requests: counter.count(), loadedAt: new Date(data.at).toISOString() };
  }

  private load(graph: GraphReader, refresh: boolean): Promise<Loaded> {
    const now = (this.options.clock ?? Date.now)();
    if (!this.loaded || refresh || now - this.loadedAt > this.options.maxAgeMs) {
      this.loadedAt = now;
      this.loaded = readAll(graph, now, this.options.log);
    }
    return this.loaded;
  }
}

async function readAll(graph: GraphReader, at: number, log: (line: string) => void): Promise<Loaded> {
  const [records, devices] = await Promise.all([loadAssignments({ graph }), readDevices(graph)]);
  const assigned = records.objects.flatMap((object) =>
    (object.targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId] : [])),
  );
  const members = await readMembers(graph, new Set(assigned));
  // Names of the groups read: those the assignments name came with report 2's look-ups; nested
  // ones are looked up the same way (`GET /groups/{id}`, twenty to a `$batch` call).
  const names = new Map<string, string>();
  for (const lookup of records.groups.values()) if (lookup.state === 'found') names.set(lookup.id.toLowerCase(), lookup.displayName);
  const unnamed = [...members.keys()].filter((id) => !names.has(id) && isGraphId(id));
  if (unnamed.length > 0) for (const lookup of (await lookUpGroups(graph, unnamed)).values()) if (lookup.state === 'found') names.set(lookup.id.toLowerCase(), lookup.displayName);
  for (const [id, group] of members) members.set(id, { ...group, displayName: names.get(id) ?? group.displayName ?? null } as GroupMembers);
  log(`what applies: read ${records.objects.length} assigned objects, ${devices.length} managed devices and the members of ${members.size} groups`);
  return { at, records, devices, members };
}

async function readDevices(graph: GraphReader): Promise<DeviceRecord[]> {
  return graph.getAll<Pick<Graph.ManagedDevice, (typeof DEVICE_FIELDS)[number]>, DeviceRecord>(
    graph.coveragePath(MANAGED_DEVICES_PATH),
    { query: { $select: DEVICE_FIELDS.join(',') } },
    (item) => ({
      id: String(item.id ?? ''),
      deviceName: item.deviceName ?? null,
      userId: item.userId || null,
      userPrincipalName: item.userPrincipalName || null,
      azureADDeviceId: item.azureADDeviceId ?? null,
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
        readable.map((id, position) => ({ id: String(position + 1), url: `${GROUP_MEMBERS_PATH.replace('{id}', id)}?$select=id&$top=${MEMBERS_PAGE}` })),
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
      items = await graph.getAll<MemberItem>(`/v1.0${GROUP_MEMBERS_PATH.replace('{id}', id)}`, { query: { $select: 'id', $top: String(MEMBERS_PAGE) } });
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

function groupRecords(data: Loaded): GroupRecord[] {
  const groups = new Map<string, GroupRecord>();
  for (const lookup of data.records.groups.values()) if (lookup.state === 'found') groups.set(lookup.id.toLowerCase(), { id: lookup.id, displayName: lookup.displayName });
  for (const group of data.members.values()) if (group.displayName && !groups.has(group.id)) groups.set(group.id, { id: group.id, displayName: group.displayName });
  return [...groups.values()];
}

/** A reader that counts the requests made through it: one per page, one per `$batch` call. */
function countingReader(graph: GraphReader): { graph: GraphReader; count: () => number } {
  let requests = 0;
  const counted: GraphReader = {
    betaCoverage: graph.betaCoverage,
    coveragePath: (path) => graph.coveragePath(path),
    get: (path, options) => {
      requests += 1;
      return graph.get(path, options);
    },
    async *pages<T>(path: string, options?: PagesOptions) {
      for await (const page of graph.pages<T>(path, options)) {
        requests += 1;
        yield page;
      }
    },
    getAll: async (path, options, project) => {
      const items = [];
      for await (const page of graph.pages(path, options)) {
        requests += 1;
        for (const item of page.items) items.push(project ? project(item as never) : item);
      }
      return items as never;
    },
    batchGet: (requests_, options) => {
      requests += Math.ceil(requests_.length / MAX_BATCH_SIZE);
      return graph.batchGet(requests_, options);
    },
  };
  return { graph: counted, count: () => requests };
}
