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

export type Overlap = { kind: 'overlap'; shared: string } | ({ kind: 'possible' } & Doubt) | { kind: 'disjoint'; reason: string };

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

/** The shared target of two inclusions, if they are the same target, or why it is not proven to reach anyone both reach. */
function sameTarget(a: Include, b: Include, groups: ReadonlyMap<string, GroupLookup>): { shared: string } | { doubt: Doubt } {
  if (a.type === 'allDevices' && b.type === 'allDevices') return { shared: 'All devices' };
  if (a.type === 'allUsers' && b.type === 'allUsers') return { shared: 'All users' };
  if (a.type === 'include' && b.type === 'include' && a.groupId.toLowerCase() === b.groupId.toLowerCase()) {
    const group = groups.get(a.groupId.toLowerCase());
    if (group?.state === 'found' && !group.isEmpty) return { shared: groupName(groups, a.groupId) };
    if (group?.state === 'found') return { doubt: { reason: `${groupName(groups, a.groupId)} is dynamic and has no member now`, short: 'dynamic group, empty now' } };
    return { doubt: { reason: `${groupName(groups, a.groupId)} could not be read`, short: 'group not read' } };
  }
  if (a.type === 'include' && b.type === 'include') {
    return {
      doubt: {
        reason: `${groupName(groups, a.groupId)} and ${groupName(groups, b.groupId)} are different groups, and whether they share members (nested groups included) was not read`,
        short: 'different groups',
      },
    };
  }
  if ((a.type === 'allUsers' && b.type === 'allDevices') || (a.type === 'allDevices' && b.type === 'allUsers')) {
    return {
      doubt: {
        reason: 'one is assigned to All users and the other to All devices: a device gets both where its user is a licensed user, which was not read',
        short: 'All users and All devices',
      },
    };
  }
  return { doubt: { reason: `${targetName(a, groups)} and ${targetName(b, groups)} may share members, which were not read`, short: 'members not read' } };
}

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
  const exclusions = [...liveExclusions(a, groups).map((id) => ({ policy: a, id })), ...liveExclusions(b, groups).map((id) => ({ policy: b, id }))];
  const unsure = liveA.unsure ?? liveB.unsure;
  let doubt: Doubt | null = unsure === null ? null : { reason: unsure, short: 'a target of another kind' };
  const excludes = (policy: TargetedPolicy, groupId: string) =>
    (policy.targets ?? []).some((target) => target.type === 'exclude' && target.groupId.toLowerCase() === groupId.toLowerCase());
  for (const targetA of liveA.includes) {
    for (const targetB of liveB.includes) {
      // All users or All devices beside a group the same policy excludes: out only where the group's members are of the type the inclusion reaches.
      const [wide, wideTarget, narrow, narrowTarget] = targetB.type === 'include' ? [a, targetA, b, targetB] : [b, targetB, a, targetA];
      if (wideTarget.type !== 'include' && narrowTarget.type === 'include' && excludes(wide, narrowTarget.groupId)) {
        doubt ??= {
          reason: `"${wide.name}" excludes ${groupName(groups, narrowTarget.groupId)}, which "${narrow.name}" targets, but Intune takes its members out of ${targetName(wideTarget, groups)} only where they are ${wideTarget.type === 'allUsers' ? 'users' : 'devices'}, and the kind of its members was not read`,
          short: 'an exclusion',
        };
        continue;
      }
      const same = sameTarget(targetA, targetB, groups);
      if ('doubt' in same) {
        doubt ??= same.doubt;
        continue;
      }
      const filtered = filterDoubt(a, targetA) ?? filterDoubt(b, targetB);
      if (filtered) {
        doubt ??= { reason: `both reach ${same.shared}, but ${filtered.reason}`, short: filtered.short };
        continue;
      }
      const exclusion = exclusions[0];
      if (exclusion) {
        // An exclusion takes out only members of its own type, and how many of the shared members it holds was not read.
        doubt ??= {
          reason: `both reach ${same.shared}, but "${exclusion.policy.name}" excludes ${groupName(groups, exclusion.id)}, which may hold the members they share`,
          short: 'an exclusion',
        };
        continue;
      }
      return { kind: 'overlap', shared: same.shared };
    }
  }
  return doubt ? { kind: 'possible', ...doubt } : { kind: 'disjoint', reason: 'their targets share no one' };
}

/**
 * The targets through which a policy is proven to reach someone alike with any other policy naming
 * the same one (`targetsOverlap`'s proven case): All devices, All users, or a group read with members,
 * without an assignment filter, on a policy with no exclusion that may take members out. The index
 * of these keys finds proven overlaps without comparing every policy with every other.
 */
export function provenTargetKeys(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): string[] {
  if (policy.targets === null || liveExclusions(policy, groups).length > 0) return [];
  const keys: string[] = [];
  for (const target of liveInclusions(policy, groups).includes) {
    if (target.filter?.mode !== 'none') continue;
    if (target.type !== 'include') keys.push(target.type);
    else {
      const group = groups.get(target.groupId.toLowerCase());
      if (group?.state === 'found' && !group.isEmpty) keys.push(`group:${target.groupId.toLowerCase()}`);
    }
  }
  return keys;
}

/** Whether a policy reaches no one at all (so it overlaps no other): its assignments read, and none of them live. */
export function reachesNoOneAtAll(policy: TargetedPolicy, groups: ReadonlyMap<string, GroupLookup>): boolean {
  if (policy.targets === null) return false;
  const live = liveInclusions(policy, groups);
  return live.includes.length === 0 && live.unsure === null;
}
