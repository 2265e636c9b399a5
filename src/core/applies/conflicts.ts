/**
 * The settings a device's policies set differently, and which value Intune applies
 * (docs/finding-rules.md, "What applies", "Conflicts on a device"). The policies are those "what
 * applies" decided for the device; what each sets is read as report 3 reads it, from report 3's
 * records as the setting conflicts report takes them (src/core/policy-settings/conflict-policy.ts,
 * `conflictPolicies`) or for those policies alone (settings-read.ts), and each pair
 * is judged by that report's own judge (src/core/policy-settings/pair-judge.ts, `judgePair`), its overlap being this answer's verdicts: two
 * policies that both apply reach the device, and one whose verdict is not "applies" but may be
 * (unknown, or depending on a filter) makes a conflict possible. Pure: nothing here reads Graph.
 */

import { capitalise, compareText, joinAnd } from '../reports/graph-values.js';
import { isAuditOnly } from '../policy-settings/settings-read.js';
import type { SecurityPostureRecords } from '../reports/security-posture/records.js';
import { unnamedNotice } from '../policy-settings/setting-values.js';
import { UNCOMPARED_KINDS } from '../policy-settings/conflict-policy.js';
import { indexSetters, isMergedSetting, isSecurity, judgePair } from '../policy-settings/pair-judge.js';
import type { Setter, Verdict } from '../policy-settings/pair-judge.js';
import type { ConflictPolicy } from '../policy-settings/conflict-policy.js';
import { conflictPolicies, definitionNames } from '../policy-settings/conflict-policy.js';
import type { Overlap } from '../policy-settings/overlap.js';
import type { AppliesGroup, AppliesVerdict } from './entry-types.js';

/**
 * What the policies set, as report 3 read them, or why they could not be read. `auditOnly`: the
 * ids of the audit-only baselines report 3 read, which enforce nothing and so set nothing that can
 * conflict (policy-settings/conflict-policy.ts).
 */
export type ConflictSettings =
  | {
      state: 'read';
      policies: readonly ConflictPolicy[];
      auditOnly: ReadonlySet<string>;
      /** The settings' display names by id, from the definitions report 3 read with the settings (policy-settings/conflict-policy.ts, `definitionNames`). */
      names?: ReadonlyMap<string, string>;
    }
  | { state: 'failed'; reason: string };

/** Report 3's records made into what the conflict rules read. */
export function conflictSettingsOf(posture: Pick<SecurityPostureRecords, 'policies'>): ConflictSettings {
  return {
    state: 'read',
    policies: conflictPolicies(posture),
    auditOnly: new Set(posture.policies.filter((policy) => isAuditOnly(policy)).map((policy) => policy.id.toLowerCase())),
    names: definitionNames(posture),
  };
}

/**
 * `conflict`: set differently by two policies that both apply, so Intune applies neither value;
 * `possibleConflict`: set differently where one of them may not apply, or where the values cannot be
 * compared (secret); `duplicate`: set to the same value by two policies that both apply;
 * `merged`: a setting Intune merges across policies (Defender's exclusions), never a conflict.
 */
export type AppliesConflictKind = 'conflict' | 'possibleConflict' | 'duplicate' | 'merged';

export interface AppliesConflictPolicy {
  objectId: string;
  name: string;
  /** Its page in the Intune admin center. */
  link: string | null;
  /** Its verdict for the device: `applies`, or `unknown` / `dependsOnFilter` where it may apply. */
  verdict: AppliesVerdict;
  /** The value it sets, as a person reads it; "(secret, set)" for a secret, whose value is never kept. */
  value: string;
}

export interface AppliesSettingConflict {
  settingDefinitionId: string;
  /**
   * The setting as the Intune admin center names it: its definition's display name, read with the
   * settings as the setting conflicts report reads it, else its id (said once in `notes`).
   */
  setting: string;
  kind: AppliesConflictKind;
  /** A setting whose conflict leaves a protection off (the setting conflicts report's "Security settings are high"). */
  security: boolean;
  /** The policies that set it and may reach the device, those that apply first. */
  policies: AppliesConflictPolicy[];
  /** Which value Intune applies, in plain English. */
  applied: string;
  /** Why, in plain English. */
  words: string;
}

export type AppliesConflicts =
  | {
      state: 'checked';
      /** Every setting set by two or more of the device's policies, conflicts first. */
      settings: AppliesSettingConflict[];
      counts: Record<AppliesConflictKind, number>;
      /**
       * What was compared (`CONFLICTS_COMPARED`, first), what was not and why (a policy whose settings
       * were not read whole), and, where settings were found, that some are shown by their catalog id
       * (`unnamedNotice`), in plain English.
       */
      notes: string[];
      /**
       * How many of the objects that may apply were not compared: policies whose settings were not read
       * whole, and configuration profiles, Administrative Templates and intents, whose settings are
       * not read at all (`UNCOMPARED_KINDS`). Never "no conflict" while it is above zero.
       */
      notCompared: number;
    }
  /** The policies' settings could not be read: why, never "no conflicts". */
  | { state: 'unread'; words: string }
  /** The question is about a user or a group, whose conflicts depend on the devices they use. */
  | { state: 'deviceOnly'; words: string };

/** What the conflict check covers, said with every checked answer so that a type not compared is not read as "no conflict". */
export const CONFLICTS_COMPARED =
  'Compared: the settings catalog policies, and the endpoint security policies and security baselines in the settings catalog\'s format, that may apply, setting by setting (by setting id), as the Setting conflicts report compares them. Not compared: configuration profiles, Administrative Templates, and security baselines and endpoint security policies of the older templates, whose settings are not read; Intune treats them as sources of conflicts all the same ("Security baselines, device configuration policies, and endpoint security policies are all treated as equal sources of device configuration settings by Intune", learn.microsoft.com/intune/intune-service/protect/endpoint-security-policy).';

export const CONFLICTS_DEVICE_ONLY =
  'Setting conflicts are shown for a device: what a user or a group ends up with depends on the devices they use and the device groups those are in. Ask about a device to see its conflicts.';

/**
 * Intune applies neither value of a conflict: "Devices and users targeted with the same setting from
 * different policies cause conflicts. When conflicts occur, Intune generates an error and doesn't
 * apply either setting" (Microsoft Learn, "Avoiding policy conflicts",
 * https://learn.microsoft.com/intune/solutions/education/tutorial-school-deployment/policy-conflicts).
 */
const NEITHER_APPLIES = 'Neither value. Intune reports a conflict and applies neither setting until only one policy sets it.';

/** The verdicts under which a policy may reach the device: the others (excluded, another platform) never deliver it. */
export const MAY_APPLY: ReadonlySet<AppliesVerdict> = new Set(['applies', 'unknown', 'dependsOnFilter']);

/** The note naming the objects of `UNCOMPARED_KINDS` that may apply: a few by name, the rest counted. */
function uncomparedNote(names: readonly string[]): string {
  const shown = names.slice(0, 5).map((name) => `"${name}"`);
  const listed = names.length > shown.length ? `${shown.join(', ')} and ${names.length - shown.length} more` : joinAnd(shown);
  return `Not compared, as their settings are not read: ${listed}. Two of them, or one of them and a policy compared, may still set one setting differently; Intune's per-setting status for the device shows that once it reports.`;
}

const KIND_ORDER: readonly AppliesConflictKind[] = ['conflict', 'possibleConflict', 'duplicate', 'merged'];

/** A policy that may reach the device, with what it sets. */
interface Candidate {
  objectId: string;
  name: string;
  link: string | null;
  verdict: AppliesVerdict;
  policy: ConflictPolicy;
}

interface DeviceSetter extends Setter {
  candidate: Candidate;
}

function kindOf(verdict: Verdict): AppliesConflictKind {
  if (verdict.kind === 'duplicate-setting') return 'duplicate';
  if (verdict.kind === 'possible-setting-conflict') return 'possibleConflict';
  return 'conflict';
}

/** Why a policy may not apply, in a few words. */
function mayNotApply(candidate: Candidate): string {
  return candidate.verdict === 'dependsOnFilter' ? `whether "${candidate.name}" applies depends on a filter` : `whether "${candidate.name}" applies could not be decided`;
}

/** Who both policies reach, as this answer decided it: both apply, so the device; else whether one does is not known. */
function overlapOf(a: Candidate, b: Candidate): Overlap {
  if (a.verdict === 'applies' && b.verdict === 'applies') return { kind: 'overlap', shared: 'this device' };
  const doubtful = a.verdict === 'applies' ? b : a;
  return { kind: 'possible', reason: mayNotApply(doubtful), short: doubtful.verdict === 'dependsOnFilter' ? 'a filter' : 'not decided' };
}

function policyOf(setter: DeviceSetter): AppliesConflictPolicy {
  const { candidate } = setter;
  return { objectId: candidate.objectId, name: candidate.name, link: candidate.link, verdict: candidate.verdict, value: setter.value.display };
}

/** The worst verdict among one setting's setters, every pair judged (one device's policies are few). */
function worstVerdict(settingDefinitionId: string, setters: readonly DeviceSetter[], security: boolean): Verdict | null {
  let worst: Verdict | null = null;
  for (let i = 0; i < setters.length; i += 1) {
    for (let j = i + 1; j < setters.length; j += 1) {
      const a = setters[i]!;
      const b = setters[j]!;
      const verdict = judgePair(settingDefinitionId, a, b, overlapOf(a.candidate, b.candidate), security);
      if (!verdict) continue;
      if (!worst || KIND_ORDER.indexOf(kindOf(verdict)) < KIND_ORDER.indexOf(kindOf(worst))) worst = verdict;
      if (kindOf(worst) === 'conflict') return worst;
    }
  }
  return worst;
}

function appliedWords(kind: AppliesConflictKind, verdict: Verdict | null, setters: readonly DeviceSetter[]): string {
  if (kind === 'conflict') return NEITHER_APPLIES;
  if (kind === 'duplicate') return `${verdict!.pair[0].value.display}, the value each policy that applies sets.`;
  if (kind === 'merged') return `All of them, merged into one list: ${[...new Set(setters.map((setter) => setter.value.display))].join('; ')}.`;
  return 'Cannot tell. Where two policies set it differently and both reach the device, Intune applies neither.';
}

/** Why, in a sentence or two: the rule's reason, and for a possible conflict what could not be told. */
function conflictWords(kind: AppliesConflictKind, verdict: Verdict | null): string {
  // "Settings and CSPs that support policy merge" (Microsoft Learn, "Antivirus policy for endpoint security in Intune").
  if (kind === 'merged') return 'Intune merges this setting from every policy that applies (policy merge), so different values are not a conflict.';
  if (kind === 'duplicate') return 'They set the same value: a duplicate, not a conflict. Changing one of them later makes a conflict.';
  const { why, overlap } = verdict!;
  return overlap.kind === 'possible' ? `${capitalise(why)}: ${overlap.reason}.` : `${capitalise(why)}.`;
}

/**
 * The settings that two or more of the device's policies set, with which value Intune applies. Only
 * settings catalog, endpoint security and baseline policies (report 3's records; `configurationPolicies`)
 * are compared; a policy excluded or for another platform reaches the device with nothing.
 */
export function deviceConflicts(groups: readonly AppliesGroup[], settings: ConflictSettings): AppliesConflicts {
  if (settings.state === 'failed') {
    return {
      state: 'unread',
      words: `Setting conflicts could not be checked: the settings of the policies could not be read (${settings.reason}). That is not "no conflicts".`,
    };
  }
  const byId = new Map<string, ConflictPolicy>();
  for (const policy of settings.policies) byId.set(policy.id.toLowerCase(), policy);
  const notes: string[] = [CONFLICTS_COMPARED];
  const index = new Map<string, DeviceSetter[]>();
  const uncompared: string[] = [];
  let unread = 0;
  for (const group of groups) {
    for (const entry of group.entries) {
      if (!MAY_APPLY.has(entry.verdict)) continue;
      if (UNCOMPARED_KINDS.has(entry.kind)) uncompared.push(entry.name);
      if (entry.kind !== 'settingsCatalogPolicy') continue;
      const id = entry.objectId.toLowerCase();
      const policy = byId.get(id);
      if (!policy) {
        if (!settings.auditOnly.has(id)) {
          notes.push(`"${entry.name}" was not among the policies whose settings were read (it may be newer than that read), so its settings are not compared.`);
          unread += 1;
        }
        continue;
      }
      if (policy.values === null) {
        notes.push(`The settings of "${entry.name}" could not be read whole (${policy.settingsError ?? 'not read'}), so its settings are not compared.`);
        unread += 1;
        continue;
      }
      const candidate: Candidate = { objectId: entry.objectId, name: entry.name, link: entry.link || policy.link, verdict: entry.verdict, policy };
      indexSetters(index, policy.values, (value): DeviceSetter => ({ policy, value, candidate }));
    }
  }

  const found: AppliesSettingConflict[] = [];
  let unnamed = 0;
  for (const [settingDefinitionId, all] of index) {
    if (all.length < 2) continue;
    // Those that apply first, then by name: the list reads as "these set it, and these may".
    const setters = [...all].sort(
      (a, b) => Number(b.candidate.verdict === 'applies') - Number(a.candidate.verdict === 'applies') || compareText(a.candidate.name, b.candidate.name),
    );
    const security = isSecurity(
      settingDefinitionId,
      setters.map((setter) => setter.policy),
    );
    let kind: AppliesConflictKind;
    let verdict: Verdict | null = null;
    let listed = setters;
    if (isMergedSetting(settingDefinitionId)) {
      // Merged into one list for the device from every policy that applies: one that only may apply adds what it sets, or not.
      listed = setters.filter((setter) => setter.candidate.verdict === 'applies');
      if (listed.length < 2) continue;
      kind = 'merged';
    } else {
      verdict = worstVerdict(settingDefinitionId, setters, security);
      if (!verdict) continue;
      kind = kindOf(verdict);
    }
    const name = settings.names?.get(settingDefinitionId);
    if (!name) unnamed += 1;
    found.push({
      settingDefinitionId,
      setting: name ?? settingDefinitionId,
      kind,
      security: kind !== 'merged' && security,
      policies: listed.map(policyOf),
      applied: appliedWords(kind, verdict, listed),
      words: conflictWords(kind, verdict),
    });
  }
  found.sort((a, b) => KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || Number(b.security) - Number(a.security) || compareText(a.setting, b.setting));
  const counts: Record<AppliesConflictKind, number> = { conflict: 0, possibleConflict: 0, duplicate: 0, merged: 0 };
  for (const setting of found) counts[setting.kind] += 1;
  // Once for the answer, not per setting (docs/finding-rules.md, "Settings as the admin center names them").
  const notice = unnamedNotice(unnamed);
  if (notice) notes.push(notice);
  if (uncompared.length > 0) notes.push(uncomparedNote(uncompared));
  return { state: 'checked', settings: found, counts, notes, notCompared: unread + uncompared.length };
}
