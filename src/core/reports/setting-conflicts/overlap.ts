/**
 * Whether two policies' targets reach a device or user in common, as Intune decides it, from report
 * 2's assignment records alone (docs/finding-rules.md, "Setting conflicts", "Overlap as Intune
 * decides it"). Proven only where the records prove it; what they cannot tell is "possible", with
 * the reason; disjoint only where nothing can be reached by both.
 */

import type { GroupLookup } from '../../directory/group-lookup.js';
import { objectPlatform, PLATFORM_NAMES } from '../../applies/platform.js';
import type { AssignableObject, AssignmentTarget } from '../assignment-hygiene/load.js';

/**
 * Why an overlap cannot be told: the whole reason, for the finding's detail, and a few words of it
 * (`short`), for the table's Overlap cell, which must fit a narrow column.
 */
export type Doubt = { reason: string; short: string };

export type Overlap = { kind: 'overlap'; shared: string; reached?: Reached } | ({ kind: 'possible' } & Doubt) | { kind: 'disjoint'; reason: string };

/** What the overlap of two policies needs to know of each: its name, platforms and targets. */
export type TargetedPolicy = Pick<AssignableObject, 'kind' | 'id' | 'name' | 'targets' | 'platforms' | 'odataType'>;

type Include = Extract<AssignmentTarget, { type: 'allUsers' | 'allDevices' | 'include' }>;

function groupName(groups: ReadonlyMap<string, GroupLookup>, id: string): string {
  const group = groups.get(id.toLowerCase());
  return group?.state === 'found' ? `group "${group.displayName}"` : `group ${id}`;
}

function targetName(target: Include, groups: ReadonlyMap<string, GroupLookup>): string {
  return target.type === 'allUsers' ? 'All users' : target.type === 'allDevices' ? 'All devices' : groupName(groups, target.groupId);
}

/** A group that reaches no one now: deleted, or read and without a member (a dynamic one may fill; it is not taken as empty). */
function reachesNoOne(group: GroupLookup | undefined): boolean {
  return group?.state === 'deleted' || (group?.state === 'found' && group.isEmpty && !group.dynamic);
}

/**
 * The inclusions that may reach someone: a deleted or empty group reaches no one, and an inclusion of
 * a group the policy also excludes is taken out ("exclusion takes precedence over inclusion" within
 * one group type, and a group is of one type; Microsoft Learn, device-profile-assign, "Exclude groups
 * from a policy assignment").
 */
function liveInclusions(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): { includes: Include[]; unsure: string | null } {
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
function liveExclusions(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): string[] {
  return (policy.targets ?? [])
    .filter((target): target is Extract<AssignmentTarget, { type: 'exclude' }> => target.type === 'exclude')
    .map((target) => target.groupId)
    .filter((id) => !reachesNoOne(groups.get(id.toLowerCase())));
}

/** Why a target's assignment filter leaves the overlap open, or null when it has none. */
function filterDoubt(policy: TargetedPolicy, target: Include): Doubt | null {
  if (target.filter === undefined) return { reason: `the assignment filter of "${policy.name}" was not read`, short: 'filter not read' };
  if (target.filter.mode === 'none') return null;
  return { reason: `"${policy.name}" is assigned with an assignment filter, whose rule is evaluated per device`, short: 'assignment filter' };
}

type Kind = 'user' | 'device';

/**
 * Who a group reaches, as far as report 2's look-ups saw its members: the users and devices listed
 * in it or in a group nested in it whose look-up is among the records, the nested groups met on the
 * way, and why not every member was seen (null when every list on the way was whole). Intune targets
 * a group's members through the groups nested in it: "What applies" reads a subject's groups the
 * same way (`transitiveMemberOf`; docs/finding-rules.md, "Setting conflicts", "Overlap as Intune
 * decides it", for the sources).
 */
interface Reach {
  members: ReadonlyMap<string, Kind>;
  nested: ReadonlySet<string>;
  partial: Doubt | null;
}

/** Nesting followed below an assigned group, as report 2's look-up reads it (group-lookup.ts, three levels). */
const MAX_DEPTH = 3;
const reachCache = new WeakMap<ReadonlyMap<string, GroupLookup>, Map<string, Reach>>();

function reachOf(groups: ReadonlyMap<string, GroupLookup>, groupId: string, depth = 0, path: ReadonlySet<string> = new Set()): Reach {
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
function targetReach(target: Include, groups: ReadonlyMap<string, GroupLookup>): Reach | { all: Kind } {
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
function exclusionOf(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>, memberId: string): 'out' | 'in' | Doubt {
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

/** What two included targets are proven to share, cannot be told to share, or are proven not to. */
type PairOverlap = { kind: 'overlap'; shared: string; members: Map<string, Kind>; whole: boolean } | { kind: 'doubt'; doubt: Doubt } | { kind: 'disjoint'; reason: string };

const kindWords = (kind: Kind, count: number) => (kind === 'user' ? (count === 1 ? 'user' : 'users') : count === 1 ? 'device' : 'devices');

/**
 * The one rule for a user beside a device: Intune delivers a user-targeted policy to the user's
 * devices (docs/finding-rules.md, "What applies", "Users and devices"), so a device and its user in
 * two policies' targets put both on that device, and whose devices the users are is not in report
 * 2's records.
 */
function crossKindDoubt(userSide: string, deviceSide: string): Doubt {
  return {
    reason: `${userSide} holds users and ${deviceSide} reaches devices: a device of one of those users gets both, and whose devices they are was not read`,
    short: 'users and devices',
  };
}

function holds(reach: Reach, kind: Kind): boolean {
  for (const member of reach.members.values()) if (member === kind) return true;
  return false;
}

/**
 * Two included targets, one of each policy, as Intune decides who they both reach: a group nested
 * in (or the same as) a group of the other reaches everyone in it; else the users and devices seen
 * in both, less those each policy's exclusions are seen to take out; proven apart only where both
 * lists were seen whole.
 */
function pairOverlap(a: TargetedPolicy, targetA: Include, b: TargetedPolicy, targetB: Include, groups: ReadonlyMap<string, GroupLookup>): PairOverlap {
  const reachA = targetReach(targetA, groups);
  const reachB = targetReach(targetB, groups);
  const filtered = filterDoubt(a, targetA) ?? filterDoubt(b, targetB);
  const hasExclusions = liveExclusions(a, groups).length > 0 || liveExclusions(b, groups).length > 0;

  if ('all' in reachA && 'all' in reachB) {
    if (reachA.all !== reachB.all) {
      return {
        kind: 'doubt',
        doubt: {
          reason: 'one is assigned to All users and the other to All devices: a device gets both where its user is a licensed user, which was not read',
          short: 'All users and All devices',
        },
      };
    }
    const shared = reachA.all === 'user' ? 'All users' : 'All devices';
    if (filtered) return { kind: 'doubt', doubt: { reason: `both reach ${shared}, but ${filtered.reason}`, short: filtered.short } };
    const exclusion = [...liveExclusions(a, groups).map((id) => ({ policy: a, id })), ...liveExclusions(b, groups).map((id) => ({ policy: b, id }))][0];
    if (exclusion) {
      return {
        kind: 'doubt',
        doubt: {
          reason: `both reach ${shared}, but "${exclusion.policy.name}" excludes ${groupName(groups, exclusion.id)}, which may hold the members they share`,
          short: 'an exclusion',
        },
      };
    }
    return { kind: 'overlap', shared, members: new Map(), whole: false };
  }

  // A group both reach whole: the same group, or one nested in the other's (or in both).
  if (!('all' in reachA) && !('all' in reachB) && targetA.type === 'include' && targetB.type === 'include') {
    const idA = targetA.groupId.toLowerCase();
    const idB = targetB.groupId.toLowerCase();
    const withinA = new Set([idA, ...reachA.nested]);
    const common = [idB, ...reachB.nested].find((id) => withinA.has(id) && groups.get(id)?.state === 'found' && !reachesNoOne(groups.get(id)));
    if (common !== undefined) {
      const group = groups.get(common) as Extract<GroupLookup, { state: 'found' }>;
      const reach = reachOf(groups, common);
      const shared =
        common === idA && common === idB
          ? groupName(groups, common)
          : `${groupName(groups, common)}, nested in ${[common === idA ? null : groupName(groups, idA), common === idB ? null : groupName(groups, idB)].filter((x) => x !== null).join(' and ')}`;
      if (group.dynamic && group.isEmpty)
        return { kind: 'doubt', doubt: { reason: `${groupName(groups, common)} is dynamic and has no member now`, short: 'dynamic group, empty now' } };
      if (filtered) return { kind: 'doubt', doubt: { reason: `both reach ${shared}, but ${filtered.reason}`, short: filtered.short } };
      // A group that is not empty may still hold no user or device (contacts, service principals, groups
      // never looked up): Intune delivers policy to users and devices only, so its member list, where
      // it was read, must show one. (Without a list, a group not empty is taken as reaching someone.)
      if (group.members !== undefined && reach.members.size === 0) {
        if (reach.partial !== null) return { kind: 'doubt', doubt: { reason: `both reach ${shared}, but ${reach.partial.reason}`, short: reach.partial.short } };
        return { kind: 'disjoint', reason: `${shared} holds no user or device (its members seen whole: fewer than 20, nested groups included)` };
      }
      if (!hasExclusions) return { kind: 'overlap', shared, members: new Map(reach.members), whole: reach.partial === null };
      const left = membersOverlap(a, b, reach.members, groups, reach.partial, shared);
      if (left) return left;
      if (idA === idB) {
        // Every member seen of the one group both include is excluded: apart only where its list was seen whole.
        if (reach.partial === null)
          return { kind: 'disjoint', reason: `every user and device in ${shared} (seen whole: fewer than 20 members, nested groups included) is excluded by one of the policies` };
        const exclusion = [...liveExclusions(a, groups).map((id) => ({ policy: a, id })), ...liveExclusions(b, groups).map((id) => ({ policy: b, id }))][0]!;
        return {
          kind: 'doubt',
          doubt: {
            reason: `both reach ${shared}, but "${exclusion.policy.name}" excludes ${groupName(groups, exclusion.id)}, which may hold the members they share (${reach.partial.reason})`,
            short: 'an exclusion',
          },
        };
      }
      // A nested group whose members are all excluded: the two groups' other members may still be shared, below.
    }
    const sameId = idA === idB;
    if (sameId) {
      const group = groups.get(idA);
      if (group?.state === 'found') return { kind: 'doubt', doubt: { reason: `${groupName(groups, idA)} is dynamic and has no member now`, short: 'dynamic group, empty now' } };
      return { kind: 'doubt', doubt: { reason: `${groupName(groups, idA)} could not be read`, short: 'group not read' } };
    }
  }

  if ('all' in reachA || 'all' in reachB) return allBesideGroup(a, targetA, b, targetB, groups);

  // Two different groups, neither nested in the other: the users and devices seen in both.
  const left = reachA as Reach;
  const right = reachB as Reach;
  const shared = new Map<string, Kind>();
  for (const [id, kind] of left.members) if (right.members.has(id)) shared.set(id, kind);
  const nameA = targetName(targetA, groups);
  const nameB = targetName(targetB, groups);
  const partial = left.partial ?? right.partial;
  if (shared.size > 0) {
    if (filtered) return { kind: 'doubt', doubt: { reason: `${nameA} and ${nameB} both hold ${countedMembers(shared)}, but ${filtered.reason}`, short: filtered.short } };
    const kept = membersOverlap(a, b, shared, groups, partial, `the members ${nameA} and ${nameB} share`);
    if (kept) return kept;
  }
  // Nothing shared is seen: apart only where both lists were seen whole, and a user on one side and a device on the other is never apart.
  if (partial) {
    return {
      kind: 'doubt',
      doubt: { reason: `${nameA} and ${nameB} are different groups, and not all of who they hold was seen: ${partial.reason}`, short: partial.short },
    };
  }
  if (holds(left, 'user') && holds(right, 'device')) return { kind: 'doubt', doubt: crossKindDoubt(nameA, nameB) };
  if (holds(right, 'user') && holds(left, 'device')) return { kind: 'doubt', doubt: crossKindDoubt(nameB, nameA) };
  return {
    kind: 'disjoint',
    reason:
      shared.size > 0
        ? `every user and device ${nameA} and ${nameB} share is excluded by one of the policies, and both were seen whole (fewer than 20 members, nested groups included)`
        : `${nameA} and ${nameB} were each seen whole (fewer than 20 members, nested groups included) and share no user or device`,
  };
}

/** Users and devices counted in words: "2 users and 1 device". */
export function counted({ users, devices }: { users: number; devices: number }): string {
  const parts = [users > 0 ? `${users} ${kindWords('user', users)}` : null, devices > 0 ? `${devices} ${kindWords('device', devices)}` : null].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(' and ') : 'no user or device';
}

/** The users and devices among members, as `counted` says them. */
function countedMembers(members: ReadonlyMap<string, Kind>): string {
  const kinds = [...members.values()];
  return counted({ users: kinds.filter((kind) => kind === 'user').length, devices: kinds.filter((kind) => kind === 'device').length });
}

/**
 * All users or All devices on one side and a group on the other: cannot be told, as before (All
 * users reaches only users Intune licenses and All devices only enrolled devices, "Intune All users
 * and All devices groups", and neither is in report 2's records), with the group's members counted
 * where its whole list was seen. Where the policy to All users or All devices excludes that very
 * group, its whole list decides: members all of the excluded kind are all taken out (apart);
 * members of the other kind are not ("Exclude groups from a policy assignment").
 */
function allBesideGroup(a: TargetedPolicy, targetA: Include, b: TargetedPolicy, targetB: Include, groups: ReadonlyMap<string, GroupLookup>): PairOverlap {
  const [wide, wideTarget, narrow, narrowTarget] = targetB.type === 'include' ? [a, targetA, b, targetB] : [b, targetB, a, targetA];
  if (narrowTarget.type !== 'include') throw new Error('a group beside All users or All devices');
  const kind: Kind = wideTarget.type === 'allUsers' ? 'user' : 'device';
  const all = targetName(wideTarget, groups);
  const group = groupName(groups, narrowTarget.groupId);
  const reach = reachOf(groups, narrowTarget.groupId);
  const whole = reach.partial === null;
  const excludes = (wide.targets ?? []).some((target) => target.type === 'exclude' && target.groupId.toLowerCase() === narrowTarget.groupId.toLowerCase());
  if (excludes) {
    const other: Kind = kind === 'user' ? 'device' : 'user';
    if (whole && !holds(reach, other))
      return {
        kind: 'disjoint',
        reason: `${group}, seen whole (fewer than 20 members, nested groups included), holds only ${kindWords(kind, 2)}, which "${wide.name}" excludes from ${all}`,
      };
    return {
      kind: 'doubt',
      doubt: {
        reason: whole
          ? `"${wide.name}" excludes ${group}, which "${narrow.name}" targets, but it holds ${countedMembers(reach.members)}, and Intune takes out of ${all} only ${kindWords(kind, 2)}: a ${kindWords(kind, 1)} of ${other === 'user' ? 'one of its users' : 'one of its devices'} may get both, which was not read`
          : `"${wide.name}" excludes ${group}, which "${narrow.name}" targets, but Intune takes its members out of ${all} only where they are ${kindWords(kind, 2)}, and not all of its members were seen: ${reach.partial!.reason}`,
        short: 'an exclusion',
      },
    };
  }
  return {
    kind: 'doubt',
    doubt: whole
      ? {
          reason: `${all} and ${group} may share members: ${group} holds ${countedMembers(reach.members)} (its whole list, nested groups included), and whether ${kind === 'user' ? 'those users are licensed for Intune' : 'those devices are enrolled'}, which ${all} needs, was not read`,
          short: `${all} beside a group`,
        }
      : { reason: `${all} and ${group} may share members, which were not all seen: ${reach.partial!.reason}`, short: reach.partial!.short },
  };
}

/**
 * The shared users and devices each policy's exclusions leave in: proven where both leave one in,
 * a doubt where an exclusion's list was not seen whole, or null when every one is taken out.
 */
function membersOverlap(
  a: TargetedPolicy,
  b: TargetedPolicy,
  shared: ReadonlyMap<string, Kind>,
  groups: ReadonlyMap<string, GroupLookup>,
  partial: Doubt | null,
  label: string,
): Extract<PairOverlap, { kind: 'overlap' | 'doubt' }> | null {
  const proven = new Map<string, Kind>();
  let doubt: Doubt | null = null;
  let out = 0;
  for (const [id, kind] of shared) {
    const exclusionA = exclusionOf(a, groups, id);
    const exclusionB = exclusionOf(b, groups, id);
    if (exclusionA === 'out' || exclusionB === 'out') out += 1;
    else if (exclusionA === 'in' && exclusionB === 'in') proven.set(id, kind);
    else doubt ??= exclusionA === 'in' ? (exclusionB as Doubt) : (exclusionA as Doubt);
  }
  if (proven.size > 0) return { kind: 'overlap', shared: label, members: proven, whole: partial === null && doubt === null && out === 0 };
  return doubt ? { kind: 'doubt', doubt } : null;
}

/** How the users and devices both reach read in a finding: counted, a few named by id (Graph gives no names with them). */
export type Reached = { users: number; devices: number; named: string[]; whole: boolean };

/** Whether two policies' targets overlap (docs/finding-rules.md, "Setting conflicts"). */
export function targetsOverlap(a: TargetedPolicy, b: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): Overlap {
  for (const policy of [a, b])
    if (policy.targets === null) return { kind: 'possible', reason: `the assignments of "${policy.name}" could not be read`, short: 'assignments not read' };
  // Intune delivers a configuration policy only to devices of its platform (docs/finding-rules.md, "What applies", "Platforms").
  const platformA = objectPlatform(a);
  const platformB = objectPlatform(b);
  if (platformA.kind === 'for' && platformB.kind === 'for' && !platformA.platforms.some((platform) => platformB.platforms.includes(platform))) {
    const words = (platforms: typeof platformA.platforms) => platforms.map((platform) => PLATFORM_NAMES[platform]).join(', ');
    return { kind: 'disjoint', reason: `"${a.name}" is for ${words(platformA.platforms)} and "${b.name}" for ${words(platformB.platforms)}` };
  }
  const liveA = liveInclusions(a, groups);
  const liveB = liveInclusions(b, groups);
  for (const [policy, live] of [
    [a, liveA],
    [b, liveB],
  ] as const) {
    if (live.includes.length === 0 && live.unsure === null)
      return { kind: 'disjoint', reason: `"${policy.name}" reaches no one (no assignment, or only to deleted, empty or excluded groups)` };
  }
  const unsure = liveA.unsure ?? liveB.unsure;
  let doubt: Doubt | null = unsure === null ? null : { reason: unsure, short: 'a target of another kind' };
  let shared: string | null = null;
  const members = new Map<string, Kind>();
  let whole = true;
  const apart: string[] = [];
  for (const targetA of liveA.includes) {
    for (const targetB of liveB.includes) {
      const pair = pairOverlap(a, targetA, b, targetB, groups);
      if (pair.kind === 'doubt') doubt ??= pair.doubt;
      else if (pair.kind === 'disjoint') apart.push(pair.reason);
      else {
        shared ??= pair.shared;
        for (const [id, kind] of pair.members) members.set(id, kind);
        whole &&= pair.whole;
      }
    }
  }
  if (shared !== null) {
    if (members.size === 0) return { kind: 'overlap', shared };
    const count = (kind: Kind) => [...members.values()].filter((member) => member === kind).length;
    const named = [...members.keys()]
      .sort()
      .slice(0, MAX_NAMED)
      .map((id) => `${members.get(id)} ${id}`);
    // Counted exactly only where nothing on the way was partly seen or left open.
    return { kind: 'overlap', shared, reached: { users: count('user'), devices: count('device'), named, whole: whole && doubt === null } };
  }
  if (doubt) return { kind: 'possible', ...doubt };
  return { kind: 'disjoint', reason: apart.length > 0 ? apart.slice(0, 2).join('; ') : 'their targets share no one' };
}

/** The most users and devices a finding names; the rest are counted. */
const MAX_NAMED = 3;

/**
 * The targets through which a policy is proven to reach someone alike with any other policy naming
 * the same one (`targetsOverlap`'s proven case): All devices, All users, or a group read with members
 * (or nested in one the policy targets), without an assignment filter, on a policy with no exclusion
 * that may take members out; and each user and device seen in its groups that its exclusions are
 * seen to leave in. The index of these keys finds proven overlaps without comparing every policy
 * with every other.
 */
export function provenTargetKeys(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): string[] {
  if (policy.targets === null) return [];
  const excludes = liveExclusions(policy, groups).length > 0;
  const keys = new Set<string>();
  for (const target of liveInclusions(policy, groups).includes) {
    if (target.filter?.mode !== 'none') continue;
    if (target.type !== 'include') {
      if (!excludes) keys.add(target.type);
      continue;
    }
    const id = target.groupId.toLowerCase();
    const reach = reachOf(groups, id);
    // The group itself and every group nested in it that has members: a policy naming any of them reaches its members too.
    if (!excludes) {
      for (const groupId of [id, ...reach.nested]) {
        const group = groups.get(groupId);
        if (group?.state === 'found' && !group.isEmpty) keys.add(`group:${groupId}`);
      }
    }
    // Each user and device seen in it that no exclusion of the policy takes out, or may.
    for (const memberId of reach.members.keys()) if (exclusionOf(policy, groups, memberId) === 'in') keys.add(`member:${memberId}`);
  }
  return [...keys];
}

/** Whether a policy reaches no one at all (so it overlaps no other): its assignments read, and none of them live. */
export function reachesNoOneAtAll(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): boolean {
  if (policy.targets === null) return false;
  const live = liveInclusions(policy, groups);
  return live.includes.length === 0 && live.unsure === null;
}
