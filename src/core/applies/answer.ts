/**
 * A question answered from its reads (docs/contract.md, "What applies"): which device, user or
 * group it names (resolved as the reads were made, load.ts and resolve.ts), then what applies to it
 * and why (derive.ts), and for a device the settings its policies set differently, from `settings`
 * (report 3's records, conflicts.ts). Pure.
 */

import { deriveApplies } from './derive.js';
import { deviceConflicts } from './conflicts.js';
import type { ConflictSettings } from './conflicts.js';
import type { AppliesAnswer } from './derive.js';
import type { AppliesReads } from './load.js';
import type { Resolution } from './resolve.js';

/** The answer, or why there is none: an `AppliesResult` before the caller adds what it read (`requests`, `loadedAt`). */
export type AppliesOutcome = Exclude<Resolution, { kind: 'found' }> | { kind: 'found'; answer: AppliesAnswer };

export function answerApplies(reads: AppliesReads, settings?: ConflictSettings): AppliesOutcome {
  const { resolution } = reads;
  if (resolution.kind !== 'found') return resolution;
  const groupNames = new Map<string, string>();
  for (const lookup of reads.assignments.groups.values()) if (lookup.state === 'found') groupNames.set(lookup.id.toLowerCase(), lookup.displayName);
  const answer = deriveApplies(resolution.subject, {
    objects: reads.assignments.objects,
    filters: reads.assignments.filters,
    members: reads.members,
    groupNames,
    ...(settings ? { settings } : {}),
  });
  return { kind: 'found', answer };
}

/**
 * A device's answer with its conflicts judged on `settings`: the same as `answerApplies(reads,
 * settings)`, from an answer already derived, since which policies may reach the device does not
 * depend on what they set (a question reads the settings of those policies only, settings-read.ts).
 */
export function withSettings(outcome: AppliesOutcome, settings: ConflictSettings): AppliesOutcome {
  if (outcome.kind !== 'found' || outcome.answer.subject.kind !== 'device') return outcome;
  return { kind: 'found', answer: { ...outcome.answer, conflicts: deviceConflicts(outcome.answer.groups, settings) } };
}
