/**
 * The enrolled devices of the users whose devices decide whether two policies meet: a policy to All
 * devices and one to a group of users reach the same device where one of those users has an enrolled
 * device of their platforms (docs/finding-rules.md, "Setting conflicts", "A user's enrolled
 * devices"). Which users to read is pure (`usersToRead`); the read is `MEMBER_DEVICES_READ`, through
 * `$batch`, each answer a value: a user whose devices could not be read leaves the overlap
 * possible, as before, and never fails the report.
 */

import { devicePlatform } from '../../policy-settings/platform.js';
import type { BatchOutcome, GraphReader } from '../../graph/graph-reader.js';
import { pathFor, pathInBatch, selectOf } from '../../graph/upstream-read.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { itemsOfBatchAnswer, optionalReadFailure, rereadEach } from '../optional-read.js';
import type { ConflictPolicy } from '../../policy-settings/conflict-policy.js';
import { isMergedSetting } from '../../policy-settings/pair-judge.js';
import type { EnrolledDevice, MemberDevices } from '../../policy-settings/overlap.js';
import type { TargetedPolicy } from '../../policy-settings/group-reach.js';
import { groupUsersBesideAllDevices, reachesAllDevices } from '../../policy-settings/overlap.js';
import { MEMBER_DEVICES_READ } from './reads.js';

/**
 * The most users whose devices one load reads: 200 users are ten `$batch` calls. A tenant whose
 * policies meet All devices through more users leaves the rest possible, saying their devices were
 * not read.
 */
export const MAX_MEMBER_DEVICE_USERS = 200;

/**
 * The users whose enrolled devices may decide an overlap: those seen in the groups of a policy that
 * sets a setting a policy to All devices sets too (a merged setting aside), in id order, at most
 * `MAX_MEMBER_DEVICE_USERS`. Nothing when no policy reaches All devices unfiltered and unexcluded.
 */
export function usersToRead(policies: readonly ConflictPolicy[], targeted: ReadonlyMap<string, TargetedPolicy>, groups: ReadonlyMap<string, GroupLookup>): string[] {
  const wideSettings = new Set<string>();
  for (const policy of policies) {
    const target = targeted.get(policy.id.toLowerCase());
    if (!target || policy.values === null || !reachesAllDevices(target, groups)) continue;
    for (const value of policy.values) if (!isMergedSetting(value.settingDefinitionId)) wideSettings.add(value.settingDefinitionId);
  }
  if (wideSettings.size === 0) return [];
  const users = new Set<string>();
  for (const policy of policies) {
    const target = targeted.get(policy.id.toLowerCase());
    if (!target || policy.values === null || !policy.values.some((value) => wideSettings.has(value.settingDefinitionId))) continue;
    for (const user of groupUsersBesideAllDevices(target, groups)) users.add(user.toLowerCase());
  }
  return [...users].sort().slice(0, MAX_MEMBER_DEVICE_USERS);
}

type DeviceItem = { id?: unknown; deviceName?: unknown; operatingSystem?: unknown };

function enrolledDevice(item: DeviceItem): EnrolledDevice | null {
  if (typeof item.id !== 'string' || item.id.length === 0) return null;
  return {
    id: item.id,
    name: typeof item.deviceName === 'string' && item.deviceName.length > 0 ? item.deviceName : item.id,
    platform: devicePlatform(typeof item.operatingSystem === 'string' ? item.operatingSystem : null),
  };
}

type Read = { ok: true; devices: readonly EnrolledDevice[] } | { ok: false; reason: string };

/**
 * One user's answer in the `$batch`: a 404 is a user the directory no longer holds, so no device of
 * theirs; a list longer than a page is read on from its next link.
 */
async function readOf(graph: GraphReader, userId: string, outcome: BatchOutcome | undefined, signal: AbortSignal): Promise<Read> {
  if (!outcome) return { ok: false, reason: 'Graph gave no answer for them' };
  if (!outcome.ok) return outcome.error.status === 404 ? { ok: true, devices: [] } : { ok: false, reason: optionalReadFailure(outcome.error, signal) };
  const read = await itemsOfBatchAnswer<DeviceItem>(graph, outcome.body, pathFor(MEMBER_DEVICES_READ, userId), signal);
  if (!read) return { ok: false, reason: 'Graph sent a malformed answer' };
  if (!read.ok) return { ok: false, reason: optionalReadFailure(read.error, signal) };
  return { ok: true, devices: read.items.flatMap((item) => enrolledDevice(item) ?? []) };
}

/**
 * The enrolled devices of `users`, by lower-case id, or why each could not be read: one `batchGet`
 * of them all, which the client sends twenty to a call and paces (src/graph/graph-batch.ts).
 */
export async function readMemberDevices(graph: GraphReader, users: readonly string[], signal: AbortSignal): Promise<MemberDevices> {
  let outcomes: Map<string, BatchOutcome>;
  try {
    outcomes = await graph.batchGet(
      users.map((userId, position) => ({ id: String(position), url: `${pathInBatch(MEMBER_DEVICES_READ, userId)}?$select=${selectOf(MEMBER_DEVICES_READ)}` })),
      { version: 'v1.0', signal },
    );
  } catch (error) {
    const reason = optionalReadFailure(error, signal);
    return new Map(users.map((userId) => [userId, { ok: false, reason }]));
  }
  const reads = await rereadEach([...users.entries()], ([position, userId]) => readOf(graph, userId, outcomes.get(String(position)), signal));
  return new Map(users.map((userId, position) => [userId, reads[position]!]));
}
