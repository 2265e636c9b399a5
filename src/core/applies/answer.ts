/**
 * A question answered from one load's reads (docs/contract.md, "What applies"): which device, user
 * or group it names (resolve.ts), then what applies to it and why (derive.ts). Pure.
 */

import { deriveApplies } from './derive.js';
import type { AppliesAnswer } from './derive.js';
import type { AppliesReads } from './load.js';
import { resolveSubject } from './resolve.js';
import type { GroupRecord, Resolution } from './resolve.js';

/** The answer, or why there is none: an `AppliesResult` before the caller adds what it read (`requests`, `loadedAt`). */
export type AppliesOutcome = Exclude<Resolution, { kind: 'found' }> | { kind: 'found'; answer: AppliesAnswer };

export function answerApplies(query: string, reads: AppliesReads): AppliesOutcome {
  const groups = groupRecords(reads);
  const memberUserIds = new Set([...reads.members.values()].flatMap((group) => (group.state === 'read' ? [...group.userIds] : [])));
  const resolution = resolveSubject(query, reads.devices, groups, memberUserIds);
  if (resolution.kind !== 'found') return resolution;
  const answer = deriveApplies(resolution.subject, {
    objects: reads.assignments.objects,
    filters: reads.assignments.filters,
    members: reads.members,
    groupNames: new Map(groups.map((group) => [group.id.toLowerCase(), group.displayName])),
  });
  return { kind: 'found', answer };
}

/** Every group a question may name: those report 2 looked up, then those read as members' groups, once each. */
function groupRecords(reads: AppliesReads): GroupRecord[] {
  const groups = new Map<string, GroupRecord>();
  for (const lookup of reads.assignments.groups.values()) if (lookup.state === 'found') groups.set(lookup.id.toLowerCase(), { id: lookup.id, displayName: lookup.displayName });
  for (const group of reads.members.values()) if (group.displayName && !groups.has(group.id)) groups.set(group.id, { id: group.id, displayName: group.displayName });
  return [...groups.values()];
}
