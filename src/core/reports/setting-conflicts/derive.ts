/**
 * The setting conflicts report's rules (docs/finding-rules.md, "Setting conflicts"): every setting
 * two or more policies set, found through an index by `settingDefinitionId` (never every policy
 * against every other), its values compared normalised, and the policies' targets compared as
 * Intune decides who they reach (src/core/policy-settings/overlap.ts).
 */

import { intuneLinks } from '../intune-links.js';
import { compareText, joinAnd } from '../graph-values.js';
import { severityTone } from '../report-model.js';
import type { CellTone, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import type { AssignableObject } from '../assignment-hygiene/records.js';
import { CONFLICT_FINDING_KINDS } from './finding-kinds.js';
import type { ConflictFindingKind } from './finding-kinds.js';
import { counted, provenTargetKeys, reachesNoOneAtAll, targetsOverlap } from '../../policy-settings/overlap.js';
import type { Overlap } from '../../policy-settings/overlap.js';
import type { ReportedConflict, ReportedConflicts, SettingConflictRecords } from './conflict-records.js';
import type { ConflictPolicy } from '../../policy-settings/conflict-policy.js';
import type { TargetedPolicy } from '../../policy-settings/group-reach.js';
import { CONFLICT_SIDES_KEY, conflictSidesCell } from './sides.js';
import { classicSettingName, isComparedProfile } from './classic-settings.js';
import { conflictAgreement, pairKey, reportedProfileName } from './agreement.js';
import type { Agreement } from './agreement.js';
import { indexSetters, isMergedSetting, isSecurity, judgePair } from '../../policy-settings/pair-judge.js';
import type { Setter, Verdict } from '../../policy-settings/pair-judge.js';
import { UNCOMPARED_KIND_WORDS } from '../../policy-settings/conflict-policy.js';
import { unnamedNotice } from '../../policy-settings/setting-values.js';

const VERDICT_WORDS: Readonly<Record<ConflictFindingKind, string>> = {
  'security-setting-conflict': 'Conflict',
  'reported-setting-conflict': 'Reported',
  'setting-conflict': 'Conflict',
  'possible-setting-conflict': 'Possible conflict',
  'duplicate-setting': 'Duplicate',
};
const ORDER: readonly ConflictFindingKind[] = ['security-setting-conflict', 'reported-setting-conflict', 'setting-conflict', 'possible-setting-conflict', 'duplicate-setting'];
/** The kinds the policies' settings and targets decide; the reported kind is the summary's alone. */
const PREDICTED: readonly ConflictFindingKind[] = ORDER.filter((kind) => kind !== 'reported-setting-conflict');

function overlapWords(overlap: Overlap): string {
  if (overlap.kind === 'possible') return `Cannot tell: ${overlap.reason}`;
  if (overlap.kind === 'disjoint') return `No overlap: ${overlap.reason}`;
  if (!overlap.reached) return `Both reach ${overlap.shared}`;
  // Counted, a few named by id: Graph's expanded member list gives ids, not names.
  const { named, whole } = overlap.reached;
  const total = overlap.reached.users + overlap.reached.devices;
  const more = total > named.length ? ` and ${total - named.length} more` : '';
  return `Both reach ${overlap.shared}: ${whole ? '' : 'at least '}${counted(overlap.reached)} (${named.join(', ')}${more})${whole ? '' : ', more may be in lists not seen whole'}`;
}

/** The Overlap cell: the verdict on who both reach in a few words; the finding's detail says why in full. */
function overlapCell(overlap: Overlap): string {
  if (overlap.kind === 'possible') return `Cannot tell: ${overlap.short}`;
  if (overlap.kind === 'disjoint') return 'No overlap';
  return overlap.reached ? `Both reach ${overlap.reached.whole ? '' : 'at least '}${counted(overlap.reached)}` : `Both reach ${overlap.shared}`;
}

/** The most policies a row and a finding name; the rest are counted. */
const MAX_LISTED = 10;
/** How many pairs of different values are tried for a possible conflict when the first are disjoint (other platforms). */
const MAX_POSSIBLE_TRIES = 20;

interface Lookups {
  keysOf: (policy: ConflictPolicy) => readonly string[];
  reachesNoOne: (policy: ConflictPolicy) => boolean;
  overlapOf: (a: ConflictPolicy, b: ConflictPolicy) => Overlap;
}

/** A verdict worse than a possible conflict: one the targets and values prove. */
const proven = (verdict: Verdict | null) => verdict !== null && ORDER.indexOf(verdict.kind) < ORDER.indexOf('possible-setting-conflict');
const differs = (a: Setter, b: Setter) => a.value.secret || b.value.secret || a.value.value !== b.value.value;
const worse = (a: Verdict | null, b: Verdict | null) => (!a ? b : !b ? a : ORDER.indexOf(b.kind) < ORDER.indexOf(a.kind) ? b : a);

/** Policy ids in one fixed order, case aside. */
const compareIds = (a: string, b: string) => {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/**
 * The worst verdict among one setting's setters, without judging every pair: proven overlaps are
 * found through an index of the targets that prove one (`provenTargetKeys`), so only setters that
 * share such a target are judged as a pair; where none proves a conflict, a possible one is looked
 * for among pairs of different values, a few at most.
 */
function settingVerdict(settingDefinitionId: string, setters: readonly Setter[], security: boolean, lookups: Lookups): Verdict | null {
  // In policy id order, so the pair that decides the verdict, and so the finding's fingerprint, never follows the order Graph listed the policies in.
  const live = setters.filter((setter) => !lookups.reachesNoOne(setter.policy)).sort((a, b) => compareIds(a.policy.id, b.policy.id));
  if (live.length < 2) return null;
  const judge = (a: Setter, b: Setter) => judgePair(settingDefinitionId, a, b, lookups.overlapOf(a.policy, b.policy), security);
  const byTarget = new Map<string, Setter[]>();
  for (const setter of live) {
    for (const key of lookups.keysOf(setter.policy)) {
      const sharing = byTarget.get(key);
      if (sharing) sharing.push(setter);
      else byTarget.set(key, [setter]);
    }
  }
  let worst: Verdict | null = null;
  for (const sharing of byTarget.values()) {
    if (sharing.length < 2) continue;
    const first = sharing[0]!;
    const other = sharing.find((setter) => setter.policy.id !== first.policy.id && differs(first, setter));
    if (other) worst = worse(worst, judge(first, other));
    const same = sharing.find((setter) => setter.policy.id !== first.policy.id && !differs(first, setter));
    if (same) worst = worse(worst, judge(first, same));
    if (proven(worst)) return worst;
    // The first may pair only as possible (its value secret, its platform another) while two others
    // conflict: the first setter of each value and platform is paired with the first of every other.
    const firsts = new Map<string, Setter>();
    for (const setter of sharing) {
      const key = `${setter.value.value}\u0000${setter.policy.platforms}`;
      if (!setter.value.secret && !firsts.has(key)) firsts.set(key, setter);
    }
    const kinds = [...firsts.values()];
    for (let i = 0; i < kinds.length; i += 1) {
      for (let j = i + 1; j < kinds.length; j += 1) {
        if (kinds[i]!.policy.id === kinds[j]!.policy.id || !differs(kinds[i]!, kinds[j]!)) continue;
        worst = worse(worst, judge(kinds[i]!, kinds[j]!));
        if (proven(worst)) return worst;
      }
    }
  }
  let tries = 0;
  for (let i = 0; i < live.length && tries < MAX_POSSIBLE_TRIES; i += 1) {
    for (let j = i + 1; j < live.length && tries < MAX_POSSIBLE_TRIES; j += 1) {
      if (!differs(live[i]!, live[j]!)) continue;
      tries += 1;
      const verdict = judge(live[i]!, live[j]!);
      if (verdict) return worse(worst, verdict);
    }
    // Setters equal to the first are equal to each other: a different value, if any, pairs with the first.
    if (i === 0 && tries === 0) break;
  }
  return worst;
}

/**
 * Report 2's record of each settings catalog policy and configuration profile, by lower-case id: the
 * targets the overlap reads (the platforms report 3 read are added where report 2 has none; a
 * profile's platform is its type's).
 */
export function targetedPolicies(objects: readonly AssignableObject[]): Map<string, TargetedPolicy> {
  const byId = new Map<string, TargetedPolicy>();
  for (const object of objects) if (object.kind === 'settingsCatalogPolicy' || object.kind === 'deviceConfiguration') byId.set(object.id.toLowerCase(), object);
  return byId;
}

export function deriveSettingConflicts(records: SettingConflictRecords): DerivedReport<ConflictFindingKind> {
  const groups = records.assignments.groups;
  const memberDevices = records.memberDevices ?? new Map();
  const targeted = targetedPolicies(records.assignments.objects);
  const names = records.definitionNames ?? new Map<string, string>();
  const uncheckedSubjects: Array<UncheckedSubject<ConflictFindingKind>> = [];

  // The index: each setting's setters, in one pass over every policy's settings.
  const index = new Map<string, Setter[]>();
  for (const policy of records.policies) if (policy.values !== null) indexSetters(index, policy.values, (value) => ({ policy, value }));

  const overlaps = new Map<string, Overlap>();
  const overlapOf = (a: ConflictPolicy, b: ConflictPolicy): Overlap => {
    const key = a.id < b.id ? `${a.id}\u0000${b.id}` : `${b.id}\u0000${a.id}`;
    const known = overlaps.get(key);
    if (known) return known;
    const targetA = targeted.get(a.id.toLowerCase());
    const targetB = targeted.get(b.id.toLowerCase());
    const missing = !targetA ? a : !targetB ? b : null;
    const overlap: Overlap = missing
      ? { kind: 'possible', reason: `the assignments of "${missing.name}" were not among those read`, short: 'assignments not read' }
      : targetsOverlap({ ...targetA!, platforms: targetA!.platforms ?? a.platforms }, { ...targetB!, platforms: targetB!.platforms ?? b.platforms }, groups, memberDevices);
    overlaps.set(key, overlap);
    return overlap;
  };

  const keys = new Map<string, readonly string[]>();
  const keysOf = (policy: ConflictPolicy): readonly string[] => {
    let known = keys.get(policy.id);
    if (!known) {
      const target = targeted.get(policy.id.toLowerCase());
      known = target ? provenTargetKeys({ ...target, platforms: target.platforms ?? policy.platforms }, groups, memberDevices) : [];
      keys.set(policy.id, known);
    }
    return known;
  };
  const nobody = new Map<string, boolean>();
  const reachesNoOne = (policy: ConflictPolicy): boolean => {
    let known = nobody.get(policy.id);
    if (known === undefined) {
      const target = targeted.get(policy.id.toLowerCase());
      known = target ? reachesNoOneAtAll(target, groups) : false;
      nobody.set(policy.id, known);
    }
    return known;
  };

  const rows: Array<ReportRow & { order: number }> = [];
  const findings: Array<FindingDraft<ConflictFindingKind>> = [];
  /** The findings whose deciding pair is two configuration profiles, by the pair as the conflict summary names it: what devices may report too. */
  const profilePairs = new Map<string, FindingDraft<ConflictFindingKind>>();
  /** The settings shown by their id, as no definition named them: said once, in the notice, not row by row. */
  const unnamed = new Set<string>();
  for (const [settingDefinitionId, setters] of index) {
    if (setters.length < 2 || isMergedSetting(settingDefinitionId)) continue;
    const security = isSecurity(
      settingDefinitionId,
      setters.map((setter) => setter.policy),
    );
    const worst = settingVerdict(settingDefinitionId, setters, security, { keysOf, reachesNoOne, overlapOf });
    if (!worst) continue;
    const involved = new Map<string, Setter>(setters.filter((setter) => !reachesNoOne(setter.policy)).map((setter) => [setter.policy.id, setter]));
    const name = names.get(settingDefinitionId) ?? settingDefinitionId;
    if (!names.has(settingDefinitionId)) unnamed.add(settingDefinitionId);
    const parties = [...involved.values()].sort((x, y) => compareText(x.policy.name, y.policy.name));
    const shown = parties.slice(0, MAX_LISTED);
    const values = `${shown.map((setter) => `"${setter.policy.name}": ${setter.value.display}`).join('; ')}${parties.length > shown.length ? `; and ${parties.length - shown.length} more` : ''}`;
    const [first, second] = worst.pair;
    const severity = CONFLICT_FINDING_KINDS[worst.kind].severity;
    const tone: CellTone = severityTone(severity);
    rows.push({
      id: settingDefinitionId,
      setting: name,
      verdict: VERDICT_WORDS[worst.kind],
      // As loud as the finding, a duplicate (low) included: docs/contract.md, "Columns", "Tones".
      verdictTone: tone,
      policies: values,
      overlap: overlapCell(worst.overlap),
      link: first.policy.link,
      order: ORDER.indexOf(worst.kind),
      // The same policies and values, structured for the tab's pane to show side by side; no column shows it (sides.ts).
      [CONFLICT_SIDES_KEY]: conflictSidesCell(shown, parties.length - shown.length, worst.pair),
    });
    const finding: FindingDraft<ConflictFindingKind> = {
      kind: worst.kind,
      subjectId: settingDefinitionId,
      subjectName: name,
      // The id the finding is known by, which Intune's settings search and the CSP pages use, where a name is shown instead.
      detail: `${name === settingDefinitionId ? '' : `Setting id ${settingDefinitionId}. `}"${first.policy.name}" sets ${first.value.display} and "${second.policy.name}" sets ${second.value.display}: ${worst.why}. ${overlapWords(worst.overlap)}.${parties.length > 2 ? ` Set by ${parties.length} policies: ${values}.` : ''}`,
      // The pair that decides the verdict, not every policy that sets the setting: a third policy added later is a new finding only if it sorts into that pair.
      ruleKey: worst.pair
        .map((setter) => setter.policy.id.toLowerCase())
        .sort()
        .join(','),
    };
    findings.push(finding);
    if (worst.kind !== 'duplicate-setting' && worst.pair.every((setter) => targeted.get(setter.policy.id.toLowerCase())?.kind === 'deviceConfiguration'))
      profilePairs.set(pairKey(worst.pair.map((setter) => setter.policy.id)), finding);
  }

  // A policy whose settings could not be read is not judged: what it may set is unknown, not "nothing".
  uncheckedSubjects.push(...unreadSettingsSubjects(records.policies, index, { reachesNoOne, overlapOf }));
  for (const policy of records.policies) {
    if (policy.values !== null) continue;
    rows.push({
      id: policy.id,
      setting: `Settings of "${policy.name}"`,
      verdict: 'Could not check',
      verdictTone: 'neutral',
      policies: `${policy.name}: ${policy.settingsError ?? 'its settings were not read'}`,
      overlap: 'Settings not read',
      link: policy.link,
      order: ORDER.length,
    });
  }

  // What devices reported, each matched with what was predicted (agreement.ts).
  const agreement = records.reported.ok
    ? conflictAgreement(records.reported.value, new Set(profilePairs.keys()), {
        policies: new Map(records.policies.map((policy) => [policy.id.toLowerCase(), policy])),
        targeted,
        overlapOf,
      })
    : null;
  if (agreement) {
    for (const [key, finding] of profilePairs) {
      const reported = agreement.predicted.get(key);
      finding.detail += reported
        ? ` Devices reported these two profiles in conflict (${checkinWords(reported)} check-ins).`
        : ' Devices have not reported these two profiles in conflict yet.';
    }
  }
  reportedConflicts(records.reported, rows, findings, agreement);

  rows.sort((a, b) => a.order - b.order || compareText(String(a.setting), String(b.setting)));
  return {
    state: rows.length === 0 ? 'empty' : 'loaded',
    notice: conflictsNotice(rows.length, unnamedNotice(unnamed.size), uncomparedSentence(records.assignments.objects)),
    headline: agreement?.line ?? null,
    columns: [
      // The setting's display name where its definition was read, else its id (never a name made up).
      { key: 'setting', label: 'Setting', available: true, format: 'text', role: 'name' },
      { key: 'verdict', label: 'Verdict', available: true, format: 'status', toneKey: 'verdictTone' },
      { key: 'policies', label: 'Policies and their values', available: true, format: 'text', role: 'wide' },
      { key: 'overlap', label: 'Overlap', available: true, format: 'text' },
      // Only when the conflict summary could not be read: its n/a column lists the kind it proves as
      // unchecked (definition.ts, `optionalSources`); a row holds its count in Overlap otherwise, so
      // the table is no wider for it.
      ...(records.reported.ok ? [] : [{ key: 'conflictSummary', label: 'Conflicts devices reported', available: false, format: 'text' } as const]),
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
    uncheckedSubjects,
  };
}

/**
 * The report's notice: "none" said only of the kinds compared, and the kinds not compared named
 * wherever the tenant assigns them (docs/finding-rules.md, "Setting conflicts", "What is compared"),
 * so that a tenant with a classic profile never reads a clean "no conflict". A report with rows says
 * no "none"; its summary names the kinds not compared, and its notice stays for what it must say.
 */
function conflictsNotice(rows: number, unnamed: string | null, uncompared: string | null): string | null {
  if (rows > 0) return unnamed;
  return uncompared
    ? `No setting is set by two of the policies compared (settings catalog policies, endpoint security policies and security baselines in the settings catalog's format, and device restrictions profiles) that reach the same devices or users. ${uncompared}`
    : 'No setting is set by two policies that reach the same devices or users.';
}

/**
 * What the tenant assigns that this report does not compare: classic configuration profiles,
 * Administrative Templates and intents, whose settings are not read, though Intune treats every
 * policy type as a source of conflicts ("Security baselines, device configuration policies, and
 * endpoint security policies are all treated as equal sources of device configuration settings by
 * Intune", learn.microsoft.com/intune/intune-service/protect/endpoint-security-policy). Counted among
 * those with a target other than an exclusion (or whose assignments were not read); null when there are none.
 */
export function uncomparedSentence(objects: readonly AssignableObject[]): string | null {
  const counts = UNCOMPARED_KIND_WORDS.map(([kind, one, many]) => {
    // Device restrictions profiles are read and compared (classic-profiles.ts): the other configuration profiles are not.
    const count = objects.filter(
      (object) => object.kind === kind && !isComparedProfile(object) && (object.targets === null || object.targets.some((target) => target.type !== 'exclude')),
    ).length;
    const [singular, plural] = kind === 'deviceConfiguration' ? [`${one} other than device restrictions`, `${many} other than device restrictions`] : [one, many];
    return count === 0 ? null : `${count} ${count === 1 ? singular : plural}`;
  }).filter((part): part is string => part !== null);
  if (counts.length === 0) return null;
  return `Not compared, as their settings are not read: ${joinAnd(counts)} assigned in this tenant. Two of them, or one of them and a policy compared, may still set one setting differently; the conflicts devices reported among them are shown.`;
}

/**
 * What a policy whose settings could not be read leaves unchecked. Findings are keyed by setting
 * (`subjectId` the setting definition id, `ruleKey` the pair of policies that decides it), so the
 * unchecked subjects are settings too: every setting a readable policy sets that the unread one
 * may reach the same devices or users as. Any finding of such a setting may have been decided by a
 * pair naming the unread policy, or be decided by one now, so none of them counts as resolved in
 * this load. A setting no readable policy sets that the unread one may share cannot have had a
 * finding with it (a pair needs both to set it), and an unread policy that reaches no one, or only
 * devices the others do not, takes part in no finding whatever it sets.
 */
function unreadSettingsSubjects(
  policies: readonly ConflictPolicy[],
  index: ReadonlyMap<string, readonly Setter[]>,
  lookups: Pick<Lookups, 'reachesNoOne' | 'overlapOf'>,
): Array<UncheckedSubject<ConflictFindingKind>> {
  const unread = policies.filter((policy) => policy.values === null && !lookups.reachesNoOne(policy));
  if (unread.length === 0) return [];
  const subjects: Array<UncheckedSubject<ConflictFindingKind>> = [];
  for (const [settingDefinitionId, setters] of index) {
    if (isMergedSetting(settingDefinitionId)) continue;
    const shared = setters.some((setter) => !lookups.reachesNoOne(setter.policy) && unread.some((policy) => lookups.overlapOf(policy, setter.policy).kind !== 'disjoint'));
    if (shared) for (const kind of PREDICTED) subjects.push({ kind, subjectId: settingDefinitionId });
  }
  return subjects;
}

/** A reported conflict's check-ins in words. */
function checkinWords(conflict: ReportedConflict): string {
  return conflict.deviceCheckinsImpacted === null ? 'an unreported number of' : conflict.deviceCheckinsImpacted.toLocaleString('en-US');
}

/** The profiles of a reported conflict, as a person reads them: each by its name, else its id. */
function profileNames(conflict: ReportedConflict): string[] {
  return conflict.profiles.map(reportedProfileName);
}

/**
 * What devices already reported, one row and one finding per entry of the conflict summary: Intune
 * saw the conflict on devices checking in, so it is not judged again from targets; its detail says
 * whether this report predicted it, or why not (agreement.ts). A summary that could not be read is
 * one "Could not check" row saying why (its column n/a), never "none reported".
 */
function reportedConflicts(
  reported: ReportedConflicts,
  rows: Array<ReportRow & { order: number }>,
  findings: Array<FindingDraft<ConflictFindingKind>>,
  agreement: Agreement | null,
): void {
  const order = ORDER.indexOf('reported-setting-conflict');
  if (!reported.ok) {
    rows.push({
      id: 'deviceConfigurationConflictSummary',
      setting: 'Conflicts devices reported',
      verdict: 'Could not check',
      verdictTone: 'neutral',
      policies: reported.reason,
      overlap: 'Not read',
      link: null,
      order: ORDER.length,
    });
    return;
  }
  const kind = 'reported-setting-conflict';
  for (const conflict of reported.value) {
    const profiles = profileNames(conflict);
    // A profile's property (`cameraBlocked`) named as Microsoft's settings pages name the field (classic-settings.ts).
    const settings = conflict.settings.length > 0 ? conflict.settings.map(classicSettingName).join(', ') : 'settings Graph did not name';
    const ids = conflict.settings.length > 0 ? ` (${conflict.settings.join(', ')})` : '';
    const first = conflict.profiles.find((profile) => profile.id !== null && profile.sourceType !== 'deviceIntent');
    const checkins = checkinWords(conflict);
    const match = agreement?.reported.get(conflict.id);
    const predicted = !match ? '' : match.predicted ? " Predicted here from the profiles' settings." : ` Not predicted here: ${match.why}.`;
    rows.push({
      id: conflict.id,
      setting: settings,
      verdict: VERDICT_WORDS[kind],
      verdictTone: severityTone(CONFLICT_FINDING_KINDS[kind].severity),
      policies: profiles.join('; '),
      // Short, as a row's height is its tallest cell's; the detail says it whole.
      overlap: `${checkins} check-ins`,
      link: first?.id ? intuneLinks.deviceConfiguration(first.id) : null,
      order,
    });
    findings.push({
      kind,
      subjectId: conflict.id,
      subjectName: settings,
      // The properties Graph named are kept in the detail, as the settings are by id in the other findings.
      detail: `Intune reports ${profiles.join(' and ')} in conflict on ${settings}${ids}: ${checkins} device check-ins impacted. Intune applies neither value on those devices.${predicted}`,
    });
  }
}
