/**
 * What report 7 predicted beside what devices reported (docs/finding-rules.md, "Setting conflicts",
 * "Predicted beside reported"). Intune's conflict summary lists pairs of configuration profiles and
 * intents that devices reported in conflict (deviceConfigurationConflictSummary, its `id` the
 * profiles' ids in order joined by underscores); the settings catalog's conflicts are not in it. So
 * the pairs compared are the profiles': a pair is predicted where two device restrictions profiles
 * read set a setting the summary names differently and may reach the same device; a reported pair
 * not predicted says why (a kind not compared, a profile not read, the values as read, the targets).
 */

import { joinAnd } from '../graph-values.js';
import { classicSettingName, isComparedProfile, typeOf } from './classic-settings.js';
import { classicSettingId } from './classic-profiles.js';
import type { ReportedConflict } from './conflict-records.js';
import type { ConflictPolicy } from '../../policy-settings/conflict-policy.js';
import type { Overlap } from '../../policy-settings/overlap.js';
import type { TargetedPolicy } from '../../policy-settings/group-reach.js';

/** A reported conflict as matched: predicted here, or not, with why. */
export type ReportedMatch = { predicted: true } | { predicted: false; why: string };

export interface Agreement {
  /** Each reported conflict's match, by its summary id. */
  reported: ReadonlyMap<string, ReportedMatch>;
  /** The pairs of profiles predicted to conflict (their ids in order, joined as the summary joins them), each with what devices reported of it, or null. */
  predicted: ReadonlyMap<string, ReportedConflict | null>;
  /** The line the report and the overview show, or null when there is nothing to compare (no profile predicted, none reported). */
  line: string | null;
}

/** Two profile ids as the summary names a pair: lower case, in order, joined by an underscore. */
export function pairKey(ids: readonly string[]): string {
  return ids
    .map((id) => id.toLowerCase())
    .sort()
    .join('_');
}

interface Lookups {
  /** The policies and profiles whose settings were read (or not), by lower-case id. */
  policies: ReadonlyMap<string, ConflictPolicy>;
  /** Report 2's records of them, by lower-case id: a profile's type is its `odataType`. */
  targeted: ReadonlyMap<string, TargetedPolicy>;
  overlapOf: (a: ConflictPolicy, b: ConflictPolicy) => Overlap;
}

/** A profile devices reported in a conflict, as a person reads it: by its name, else its id, quoted. */
export function reportedProfileName(profile: ReportedConflict['profiles'][number]): string {
  return `"${profile.name ?? profile.id ?? 'a profile Graph did not name'}"`;
}

/** Whether the pair was predicted to conflict on one of the settings devices named, or why not. */
function matchReported(conflict: ReportedConflict, lookups: Lookups): ReportedMatch {
  const [first, second, ...rest] = conflict.profiles;
  if (!first || !second || rest.length > 0) return { predicted: false, why: 'Intune names other than two profiles in it' };
  for (const profile of [first, second]) {
    if (profile.sourceType === 'deviceIntent')
      return { predicted: false, why: `${reportedProfileName(profile)} is a security baseline or endpoint security policy of the older templates, whose settings are not read` };
    const target = profile.id === null ? undefined : lookups.targeted.get(profile.id.toLowerCase());
    if (!target) return { predicted: false, why: `${reportedProfileName(profile)} was not among the profiles read` };
    const policy = lookups.policies.get(profile.id!.toLowerCase());
    if (!policy && isComparedProfile(target)) return { predicted: false, why: `${reportedProfileName(profile)} is assigned to no one, so its settings were not read` };
    if (!policy)
      return { predicted: false, why: `${reportedProfileName(profile)} is a configuration profile of a type whose settings are not compared (${typeOf(target.odataType)})` };
    if (policy.values === null) return { predicted: false, why: `the settings of ${reportedProfileName(profile)} could not be read` };
  }
  const a = lookups.policies.get(first.id!.toLowerCase())!;
  const b = lookups.policies.get(second.id!.toLowerCase())!;
  if (conflict.settings.length === 0) return { predicted: false, why: 'Graph named no setting in it' };
  const whyNot: string[] = [];
  for (const property of conflict.settings) {
    const ids = [a, b].map((policy) => classicSettingId(typeOf(lookups.targeted.get(policy.id.toLowerCase())?.odataType), property));
    const [valueA, valueB] = [a, b].map((policy, index) => policy.values!.find((value) => value.settingDefinitionId === ids[index]));
    const setting = classicSettingName(property);
    if (!valueA || !valueB) {
      whyNot.push(!valueA && !valueB ? `as read, neither sets ${setting}` : `as read, only "${(valueA ? a : b).name}" sets ${setting}; the other leaves it Not configured`);
      continue;
    }
    if (valueA.value === valueB.value) {
      whyNot.push(`as read, both set ${setting} to ${valueA.display}`);
      continue;
    }
    const overlap = lookups.overlapOf(a, b);
    if (overlap.kind === 'disjoint') {
      whyNot.push(`as read, no device or user gets both: ${overlap.reason}`);
      continue;
    }
    return { predicted: true };
  }
  return { predicted: false, why: whyNot.join('; ') };
}

/**
 * The agreement: each reported conflict predicted or not (with why), each predicted pair of profiles
 * reported or not, and the line that counts them. `predictedPairs` are the pairs of profiles the
 * report's own findings found in conflict (proven or possible), by `pairKey`.
 */
export function conflictAgreement(reported: readonly ReportedConflict[], predictedPairs: ReadonlySet<string>, lookups: Lookups): Agreement {
  const matches = new Map<string, ReportedMatch>();
  const predicted = new Map<string, ReportedConflict | null>([...predictedPairs].map((key) => [key, null]));
  for (const conflict of reported) {
    const key = pairKey(conflict.profiles.flatMap((profile) => (profile.id ? [profile.id] : [])));
    const match = predicted.has(key) ? ({ predicted: true } as const) : matchReported(conflict, lookups);
    matches.set(conflict.id, match);
    if (match.predicted) predicted.set(key, conflict);
  }
  const confirmed = [...predicted.values()].filter((reported) => reported !== null).length;
  const unpredicted = [...matches.values()].filter((match): match is Extract<ReportedMatch, { predicted: false }> => !match.predicted);
  if (predicted.size === 0 && unpredicted.length === 0) return { reported: matches, predicted, line: null };
  const whys = [...new Set(unpredicted.map((match) => match.why))];
  const parts = [
    `${confirmed} of ${predicted.size} predicted ${predicted.size === 1 ? 'conflict' : 'conflicts'} between configuration profiles confirmed by devices`,
    unpredicted.length === 0
      ? null
      : `${unpredicted.length} reported that ${unpredicted.length === 1 ? 'was' : 'were'} not predicted (${joinAnd(whys.slice(0, 2))}${whys.length > 2 ? ', and more' : ''})`,
  ].filter((part): part is string => part !== null);
  return { reported: matches, predicted, line: `${parts.join('; ')}.` };
}
