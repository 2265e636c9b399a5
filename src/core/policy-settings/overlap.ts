/**
 * Whether two policies' targets reach a device or user in common, as Intune decides it, from report
 * 2's assignment records (who each target reaches: group-reach.ts) and, beside All devices, the
 * enrolled devices of a group's users where report 7 read them (docs/finding-rules.md, "Setting
 * conflicts", "Overlap as Intune decides it"). Proven only where the records prove it; what they
 * cannot tell is "possible", with the reason; disjoint only where nothing can be reached by both.
 */

import type { GroupLookup } from '../directory/group-lookup.js';
import { objectPlatform, PLATFORM_NAMES } from './platform.js';
import type { Platform } from './platform.js';
import { exclusionOf, filterDoubt, groupName, liveExclusions, liveInclusions, reachesNoOne, reachOf, targetName, targetReach } from './group-reach.js';
import type { Doubt, Include, Kind, Reach, TargetedPolicy } from './group-reach.js';

export type Overlap = { kind: 'overlap'; shared: string; reached?: Reached } | ({ kind: 'possible' } & Doubt) | { kind: 'disjoint'; reason: string };

/**
 * The enrolled devices of the users report 7 read them for (src/core/reports/setting-conflicts/member-devices.ts, `MEMBER_DEVICES_READ`), by the
 * user's lower-case id, or why they could not be read; a user not in the map was not read. Intune
 * delivers a policy assigned to a user group to that user's devices, and one assigned to All devices
 * to every enrolled device (docs/finding-rules.md, "Setting conflicts", "A user's enrolled devices").
 */
export type MemberDevices = ReadonlyMap<string, { ok: true; devices: readonly EnrolledDevice[] } | { ok: false; reason: string }>;

const NO_MEMBER_DEVICES: MemberDevices = new Map();

/** One of a user's enrolled devices: its managed device id, its name, and the platform its `operatingSystem` names (null for one this app does not know). */
export interface EnrolledDevice {
  id: string;
  name: string;
  platform: Platform | null;
}

/**
 * What two included targets are proven to share (the users and devices, with the names of those
 * known by one: a user's enrolled device), cannot be told to share, or are proven not to.
 */
type PairOverlap =
  | { kind: 'overlap'; shared: string; members: Map<string, Kind>; whole: boolean; names?: ReadonlyMap<string, string> }
  | { kind: 'doubt'; doubt: Doubt }
  | { kind: 'disjoint'; reason: string };

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
function pairOverlap(
  a: TargetedPolicy,
  targetA: Include,
  b: TargetedPolicy,
  targetB: Include,
  groups: ReadonlyMap<string, GroupLookup>,
  memberDevices: MemberDevices,
): PairOverlap {
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

  if ('all' in reachA || 'all' in reachB) return allBesideGroup(a, targetA, b, targetB, groups, memberDevices);

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
 * All users or All devices on one side and a group on the other. All devices beside a group of
 * users is proven where one of its users has an enrolled device both are for (`enrolledDevicesOverlap`);
 * otherwise it cannot be told (All users reaches only users Intune licenses and All devices only
 * enrolled devices, "Intune All users and All devices groups", and neither is in report 2's records),
 * with the group's members counted where its whole list was seen. Where the policy to All users or
 * All devices excludes that very group, its whole list decides: members all of the excluded kind are
 * all taken out (apart); members of the other kind are not ("Exclude groups from a policy assignment").
 */
function allBesideGroup(
  a: TargetedPolicy,
  targetA: Include,
  b: TargetedPolicy,
  targetB: Include,
  groups: ReadonlyMap<string, GroupLookup>,
  memberDevices: MemberDevices,
): PairOverlap {
  const [wide, wideTarget, narrow, narrowTarget] = targetB.type === 'include' ? [a, targetA, b, targetB] : [b, targetB, a, targetA];
  if (narrowTarget.type !== 'include') throw new Error('a group beside All users or All devices');
  const kind: Kind = wideTarget.type === 'allUsers' ? 'user' : 'device';
  const all = targetName(wideTarget, groups);
  const group = groupName(groups, narrowTarget.groupId);
  const reach = reachOf(groups, narrowTarget.groupId);
  const whole = reach.partial === null;
  const excludes = (wide.targets ?? []).some((target) => target.type === 'exclude' && target.groupId.toLowerCase() === narrowTarget.groupId.toLowerCase());
  if (kind === 'device' && !excludes) {
    const enrolled = enrolledDevicesOverlap(wide, wideTarget, narrow, narrowTarget, groups, memberDevices);
    if (enrolled) return enrolled;
  }
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
          reason: `${all} and ${group} may share members: ${group} holds ${countedMembers(reach.members)} (its whole list, nested groups included), and ${unreadOfAll(kind, reach, memberDevices)}`,
          short: `${all} beside a group`,
        }
      : { reason: `${all} and ${group} may share members, which were not all seen: ${reach.partial!.reason}`, short: reach.partial!.short },
  };
}

/** What All users or All devices beside a group seen whole leaves untold: whether its members are what the other reaches. */
function unreadOfAll(kind: Kind, reach: Reach, memberDevices: MemberDevices): string {
  if (kind === 'user') return 'whether those users are licensed for Intune, which All users needs, was not read';
  if (!holds(reach, 'user')) return 'whether those devices are enrolled, which All devices needs, was not read';
  const users = [...reach.members].filter(([, member]) => member === 'user').map(([id]) => memberDevices.get(id.toLowerCase()));
  if (users.every((read) => read?.ok)) return 'none of its users has an enrolled device on a platform both policies are for now (one enrolled later gets both)';
  const failed = users.find((read) => read !== undefined && !read.ok);
  return failed && !failed.ok ? `the enrolled devices of its users could not be read: ${failed.reason}` : 'the enrolled devices of its users were not read';
}

/**
 * All devices beside a group of users, decided by the users' enrolled devices where report 7 read
 * them (`MemberDevices`): Intune delivers the group's policy to its users' devices and the other to
 * every enrolled device, so an enrolled device of a user in the group, on a platform both policies
 * are for, gets both, as "what applies" finds on that device through its primary user. Proven only
 * where neither target has an assignment filter, the policy to All devices excludes no group, and the
 * group's policy is seen to leave the user in; null otherwise (or where no such device was seen), and
 * the doubt stands. Counted exactly only where the group was seen whole and every user's devices read.
 */
function enrolledDevicesOverlap(
  wide: TargetedPolicy,
  wideTarget: Include,
  narrow: TargetedPolicy,
  narrowTarget: Extract<Include, { type: 'include' }>,
  groups: ReadonlyMap<string, GroupLookup>,
  memberDevices: MemberDevices,
): PairOverlap | null {
  if (memberDevices.size === 0 || filterDoubt(wide, wideTarget) || filterDoubt(narrow, narrowTarget) || liveExclusions(wide, groups).length > 0) return null;
  const wideFor = objectPlatform(wide);
  const narrowFor = objectPlatform(narrow);
  if (wideFor.kind !== 'for' || narrowFor.kind !== 'for') return null;
  const platforms = wideFor.platforms.filter((platform) => narrowFor.platforms.includes(platform));
  const reach = reachOf(groups, narrowTarget.groupId);
  const members = new Map<string, Kind>();
  const names = new Map<string, string>();
  let whole = reach.partial === null;
  for (const [userId, kind] of reach.members) {
    if (kind !== 'user') continue;
    const exclusion = exclusionOf(narrow, groups, userId);
    if (exclusion === 'out') continue;
    const read = memberDevices.get(userId.toLowerCase());
    if (exclusion !== 'in' || !read?.ok) {
      whole = false;
      continue;
    }
    for (const device of read.devices) {
      // A device on a platform this app does not know may or may not get both: not counted, and the count not exact.
      if (device.platform === null) whole = false;
      else if (platforms.includes(device.platform)) {
        members.set(device.id, 'device');
        names.set(device.id, device.name);
      }
    }
  }
  if (members.size === 0) return null;
  return { kind: 'overlap', shared: `the enrolled devices of the users in ${groupName(groups, narrowTarget.groupId)}, which All devices includes`, members, whole, names };
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

/** How the users and devices both reach read in a finding: counted, a few named, by id where Graph's member lists give no name, a user's enrolled device by its name. */
export type Reached = { users: number; devices: number; named: string[]; whole: boolean };

/** Whether two policies' targets overlap (docs/finding-rules.md, "Setting conflicts"). */
export function targetsOverlap(a: TargetedPolicy, b: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>, memberDevices: MemberDevices = NO_MEMBER_DEVICES): Overlap {
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
  const names = new Map<string, string>();
  let whole = true;
  const apart: string[] = [];
  for (const targetA of liveA.includes) {
    for (const targetB of liveB.includes) {
      const pair = pairOverlap(a, targetA, b, targetB, groups, memberDevices);
      if (pair.kind === 'doubt') doubt ??= pair.doubt;
      else if (pair.kind === 'disjoint') apart.push(pair.reason);
      else {
        shared ??= pair.shared;
        for (const [id, kind] of pair.members) members.set(id, kind);
        for (const [id, name] of pair.names ?? []) names.set(id, name);
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
      .map((id) => `${members.get(id)} ${names.get(id) ?? id}`);
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
export function provenTargetKeys(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>, memberDevices: MemberDevices = NO_MEMBER_DEVICES): string[] {
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
    // A user it leaves in whose enrolled device is of its platform: a policy to All devices reaches that device too (`enrolledDevicesOverlap`).
    if (!keys.has('allDevices') && enrolledDeviceOf(policy, reach, groups, memberDevices)) keys.add('allDevices');
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

/** Whether a user the policy's group holds, and its exclusions leave in, has an enrolled device of the policy's platforms. */
function enrolledDeviceOf(policy: TargetedPolicy, reach: Reach, groups: ReadonlyMap<string, GroupLookup>, memberDevices: MemberDevices): boolean {
  if (memberDevices.size === 0) return false;
  const platform = objectPlatform(policy);
  if (platform.kind !== 'for') return false;
  for (const [userId, kind] of reach.members) {
    const read = kind === 'user' ? memberDevices.get(userId.toLowerCase()) : undefined;
    if (read?.ok && read.devices.some((device) => device.platform !== null && platform.platforms.includes(device.platform)) && exclusionOf(policy, groups, userId) === 'in')
      return true;
  }
  return false;
}

/** Whether a policy reaches All devices as `enrolledDevicesOverlap` can prove: without an assignment filter, excluding no group. */
export function reachesAllDevices(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): boolean {
  if (policy.targets === null || liveExclusions(policy, groups).length > 0) return false;
  return liveInclusions(policy, groups).includes.some((target) => target.type === 'allDevices' && target.filter?.mode === 'none');
}

/** The users seen in a policy's groups (assigned without a filter) that its exclusions do not take out: whose enrolled devices may meet All devices. */
export function groupUsersBesideAllDevices(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): string[] {
  if (policy.targets === null) return [];
  const users = new Set<string>();
  for (const target of liveInclusions(policy, groups).includes) {
    if (target.type !== 'include' || target.filter?.mode !== 'none') continue;
    for (const [id, kind] of reachOf(groups, target.groupId).members) if (kind === 'user' && exclusionOf(policy, groups, id) !== 'out') users.add(id);
  }
  return [...users];
}

/** Whether a policy reaches no one at all (so it overlaps no other): its assignments read, and none of them live. */
export function reachesNoOneAtAll(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): boolean {
  if (policy.targets === null) return false;
  const live = liveInclusions(policy, groups);
  return live.includes.length === 0 && live.unsure === null;
}
