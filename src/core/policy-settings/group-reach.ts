/**
 * Who a policy's targets reach, as far as report 2's records show it: its live inclusions and
 * exclusions, the users and devices its groups hold (nested groups included, to the depth report 2's
 * look-ups read), and whether an exclusion takes one of them out. The overlap of two policies
 * (overlap.ts) is judged from these (docs/finding-rules.md, "Setting conflicts", "Overlap as Intune
 * decides it").
 */

import type { GroupLookup } from '../directory/group-lookup.js';
import type { AssignableObject, AssignmentTarget } from '../reports/assignment-hygiene/records.js';

/**
 * Why an overlap cannot be told: the whole reason, for the finding's detail, and a few words of it
 * (`short`), for the table's Overlap cell, which must fit a narrow column.
 */
export type Doubt = { reason: string; short: string };

/** What the overlap of two policies needs to know of each: its name, platforms and targets. */
export type TargetedPolicy = Pick<AssignableObject, 'kind' | 'id' | 'name' | 'targets' | 'platforms' | 'odataType'>;

export type Include = Extract<AssignmentTarget, { type: 'allUsers' | 'allDevices' | 'include' }>;

export function groupName(groups: ReadonlyMap<string, GroupLookup>, id: string): string {
  const group = groups.get(id.toLowerCase());
  return group?.state === 'found' ? `group "${group.displayName}"` : `group ${id}`;
}

export function targetName(target: Include, groups: ReadonlyMap<string, GroupLookup>): string {
  return target.type === 'allUsers' ? 'All users' : target.type === 'allDevices' ? 'All devices' : groupName(groups, target.groupId);
}

/** A group that reaches no one now: deleted, or read and without a member (a dynamic one may fill; it is not taken as empty). */
export function reachesNoOne(group: GroupLookup | undefined): boolean {
  return group?.state === 'deleted' || (group?.state === 'found' && group.isEmpty && !group.dynamic);
}

/**
 * The inclusions that may reach someone: a deleted or empty group reaches no one, and an inclusion of
 * a group the policy also excludes is taken out ("exclusion takes precedence over inclusion" within
 * one group type, and a group is of one type; Microsoft Learn, device-profile-assign, "Exclude groups
 * from a policy assignment").
 */
export function liveInclusions(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): { includes: Include[]; unsure: string | null } {
  const targets = policy.targets ?? [];
  const excluded = new Set(targets.filter((target) => target.type === 'exclude').map((target) => target.groupId.toLowerCase()));
  const includes: Include[] = [];
  let unsure: string | null = null;
  for (const target of targets) {
    if (target.type === 'allUsers' || target.type === 'allDevices') includes.push(target);
    else if (target.type === 'include') {
      const id = target.groupId.toLowerCase();
      if (excluded.has(id) || reachesNoOne(groups.get(id))) continue;
      includes.push(target);
    } else if (target.type === 'configMgrCollection' || target.type === 'other') {
      unsure ??= `"${policy.name}" is also assigned to a target of a kind not evaluated here (${target.type === 'other' ? target.odataType : 'a Configuration Manager collection'})`;
    }
  }
  return { includes, unsure };
}

/** The exclusions that may take someone out: those of groups that are not deleted or empty. */
export function liveExclusions(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): string[] {
  return (policy.targets ?? [])
    .filter((target): target is Extract<AssignmentTarget, { type: 'exclude' }> => target.type === 'exclude')
    .map((target) => target.groupId)
    .filter((id) => !reachesNoOne(groups.get(id.toLowerCase())));
}

/** Why a target's assignment filter leaves the overlap open, or null when it has none. */
export function filterDoubt(policy: TargetedPolicy, target: Include): Doubt | null {
  if (target.filter === undefined) return { reason: `the assignment filter of "${policy.name}" was not read`, short: 'filter not read' };
  if (target.filter.mode === 'none') return null;
  return { reason: `"${policy.name}" is assigned with an assignment filter, whose rule is evaluated per device`, short: 'assignment filter' };
}

export type Kind = 'user' | 'device';

/**
 * Who a group reaches, as far as report 2's look-ups saw its members: the users and devices listed
 * in it or in a group nested in it whose look-up is among the records, the nested groups met on the
 * way, and why not every member was seen (null when every list on the way was whole). Intune targets
 * a group's members through the groups nested in it: "What applies" reads a subject's groups the
 * same way (`transitiveMemberOf`; docs/finding-rules.md, "Setting conflicts", "Overlap as Intune
 * decides it", for the sources).
 */
export interface Reach {
  members: ReadonlyMap<string, Kind>;
  nested: ReadonlySet<string>;
  partial: Doubt | null;
}

/** Nesting followed below an assigned group, as report 2's look-up reads it (group-lookup.ts, three levels). */
const MAX_DEPTH = 3;
const reachCache = new WeakMap<ReadonlyMap<string, GroupLookup>, Map<string, Reach>>();

export function reachOf(groups: ReadonlyMap<string, GroupLookup>, groupId: string, depth = 0, path: ReadonlySet<string> = new Set()): Reach {
  const id = groupId.toLowerCase();
  let cache = reachCache.get(groups);
  if (!cache) reachCache.set(groups, (cache = new Map()));
  const known = depth === 0 ? cache.get(id) : undefined;
  if (known) return known;
  const group = groups.get(id);
  const name = groupName(groups, id);
  const members = new Map<string, Kind>();
  const nested = new Set<string>();
  let partial: Doubt | null = null;
  if (group?.state === 'deleted') {
    // A deleted group holds no one.
  } else if (group === undefined && depth > 0) {
    // A group nested among users is not looked up by report 2 unless a policy names it too (group-lookup.ts reads below groups of groups only).
    partial = { reason: `${name}, nested in a group assigned, was not looked up, so its members were not seen`, short: 'nested group not read' };
  } else if (group?.state !== 'found') {
    partial = { reason: `the members of ${name} could not be read`, short: 'group not read' };
  } else if (group.members === undefined) {
    partial = { reason: `the members of ${name} were not read`, short: 'members not read' };
  } else {
    for (const member of group.members) {
      if (member.type === 'user' || member.type === 'device') members.set(member.id, member.type);
      else if (member.type === 'group' && !path.has(member.id) && member.id !== id) {
        nested.add(member.id);
        if (depth + 1 > MAX_DEPTH) {
          partial ??= { reason: `${name} holds groups nested deeper than ${MAX_DEPTH} levels, whose members were not read`, short: 'nesting too deep' };
          continue;
        }
        const inner = reachOf(groups, member.id, depth + 1, new Set([...path, id]));
        for (const [innerId, kind] of inner.members) members.set(innerId, kind);
        for (const innerGroup of inner.nested) nested.add(innerGroup);
        partial ??= inner.partial;
      }
      // Another kind of object (a service principal, a contact) is neither a user nor a device Intune targets.
    }
    if (!group.membersWhole)
      partial ??= { reason: `${name} has 20 members or more, and Graph lists only the first 20 of them in the one read made`, short: `not all members seen` };
    else if (group.dynamic) partial ??= { reason: `${name} is a dynamic group, whose members change as its rule matches`, short: 'dynamic group' };
  }
  const reach: Reach = { members, nested, partial };
  if (depth === 0) cache.set(id, reach);
  return reach;
}

/** The users and devices a target is seen to reach, or `all` of a kind for All users and All devices. */
export function targetReach(target: Include, groups: ReadonlyMap<string, GroupLookup>): Reach | { all: Kind } {
  if (target.type === 'allUsers') return { all: 'user' };
  if (target.type === 'allDevices') return { all: 'device' };
  return reachOf(groups, target.groupId);
}

/**
 * Whether a policy's exclusions take one user or device out: `out` when an excluded group is seen to
 * hold it ("Exclusion takes precedence over inclusion" for the same object, a user in a user group
 * or a device in a device group), `in` when every excluded group's whole list was seen without it,
 * else why it cannot be told.
 */
export function exclusionOf(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>, memberId: string): 'out' | 'in' | Doubt {
  let doubt: Doubt | null = null;
  for (const excluded of liveExclusions(policy, groups)) {
    const reach = reachOf(groups, excluded);
    if (reach.members.has(memberId)) return 'out';
    if (reach.partial)
      doubt ??= {
        reason: `"${policy.name}" excludes ${groupName(groups, excluded)}, and whether it holds the members they share was not told: ${reach.partial.reason}`,
        short: 'an exclusion',
      };
  }
  return doubt ?? 'in';
}
