/**
 * The judge of two policies that set one setting, which report 7 and "what applies" both ask
 * (docs/finding-rules.md, "Setting conflicts"): different values where both reach a device or user
 * are a conflict (Intune applies neither), the same value a duplicate, and a setting Intune merges
 * across policies is neither. Who both reach is the caller's to decide (overlap.ts).
 */

import type { ConflictPolicy } from './conflict-policy.js';
import type { Overlap } from './overlap.js';
import type { SettingValue } from './setting-values.js';

/**
 * Settings Intune merges across policies rather than conflicts on: Microsoft Defender Antivirus'
 * exclusions (Microsoft Learn, "Antivirus policy for endpoint security in Intune", "Settings and
 * CSPs that support policy merge": Excluded Processes, Excluded Extensions, Excluded Paths), and
 * Windows Firewall rules: "When rules from multiple rules profiles don't conflict with each other,
 * devices merge the rules from each profile to create combined firewall rule configuration on the
 * device" (Microsoft Learn, "Firewall policy for endpoint security in Intune", "Firewall rule
 * mergers and policy conflicts", learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-firewall-policy;
 * two rules for the same thing configured differently are both delivered and conflict on the
 * device, which no policy-level comparison sees). The ASR rules merge rule by rule: each rule is
 * compared on its own (setting-values.ts keeps them apart, their definition allowing one entry).
 */
export const MERGED_SETTINGS: ReadonlySet<string> = new Set([
  'device_vendor_msft_policy_config_defender_excludedpaths',
  'device_vendor_msft_policy_config_defender_excludedextensions',
  'device_vendor_msft_policy_config_defender_excludedprocesses',
  'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}',
]);

/**
 * Device control's device installation lists, which Intune merges into one list for a device:
 * "Policy merge for device control profiles" (Microsoft Learn, "Attack surface reduction policy for
 * endpoint security in Intune", learn.microsoft.com/intune/intune-service/protect/endpoint-security-asr-policy)
 * lists allowing and blocking by device identifiers, by setup classes and by device instance
 * identifiers as settings that "support policy merge", and says "Policy merge evaluates the lists of
 * setup classes that were configured in each instance … The result is a single list for each of the
 * supported settings". What merges is the list, the setting's child ending in `_list`
 * (`…preventinstallationofmatchingdevicesetupclasses_deviceinstall_classes_deny_list`).
 * Blocking by device identifiers is left out: the endpoint security policy page says policy merge
 * does not support "the CSP to prevent installation of matching device IDs
 * (PreventInstallationOfMatchingDeviceIDs)" (learn.microsoft.com/intune/intune-service/protect/endpoint-security-policy),
 * so where the two pages disagree it is `DEVICE_IDS_PREVENTED` below, never a proven conflict.
 */
const DEVICE_CONTROL_MERGED_SETTING =
  'device_vendor_msft_policy_config_deviceinstallation_(?:allowinstallationofmatching(?:deviceids|devicesetupclasses|deviceinstanceids)|preventinstallationofmatching(?:devicesetupclasses|deviceinstanceids))';
const DEVICE_CONTROL_MERGED_LIST = new RegExp(`^${DEVICE_CONTROL_MERGED_SETTING}_\\w+_list$`);

/**
 * The rest of such a setting: whether it is enabled, whether it applies to devices already installed
 * (`…_deny_retroactive`). Every policy that brings a list enables the setting, so the same value in
 * two is part of the merge, not a duplicate to take out; different values are a possible conflict,
 * since neither page says how Intune combines them (`DEVICE_CONTROL_PART_DOUBT`).
 */
const DEVICE_CONTROL_MERGED_PART = new RegExp(`^${DEVICE_CONTROL_MERGED_SETTING}(?:_(?!\\w+_list$)\\w+)?$`);
const DEVICE_CONTROL_PART_DOUBT =
  "Intune merges this device control setting's lists across policies (the attack surface reduction policy page), and Microsoft does not say how it combines the rest of the setting, such as whether it is enabled";

/** Whether Intune merges this setting's values across policies rather than conflicts on them (`MERGED_SETTINGS`, `DEVICE_CONTROL_MERGED_LIST`). */
export function isMergedSetting(settingDefinitionId: string): boolean {
  return MERGED_SETTINGS.has(settingDefinitionId) || DEVICE_CONTROL_MERGED_LIST.test(settingDefinitionId);
}

/** Preventing installation by device IDs: Microsoft's pages disagree on whether Intune merges it (above), so two values are never a proven conflict. */
const DEVICE_IDS_PREVENTED = /^device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdeviceids(?:_|$)/;
const DEVICE_IDS_DOUBT =
  "Microsoft's pages disagree on whether Intune merges this device control setting (the attack surface reduction policy page lists it as merged, the endpoint security policy page says preventing installation by device IDs does not merge)";

/** Settings whose conflict leaves a protection off (docs/finding-rules.md, "Setting conflicts", "Security settings are high"). */
const SECURITY_SETTING =
  /^(vendor_msft_firewall_|device_vendor_msft_policy_config_defender_|device_vendor_msft_defender_|device_vendor_msft_bitlocker_|device_vendor_msft_laps_|device_vendor_msft_policy_config_attacksurfacereduction)/;

export function isSecurity(settingDefinitionId: string, policies: readonly ConflictPolicy[]): boolean {
  return SECURITY_SETTING.test(settingDefinitionId) || policies.some((policy) => policy.templateFamily.startsWith('endpointSecurity') || policy.templateFamily === 'baseline');
}

export interface Setter {
  policy: ConflictPolicy;
  value: SettingValue;
}

/** What the judge can say of a pair: report 7's finding kinds, all but the one devices report. */
export type PairVerdictKind = 'security-setting-conflict' | 'setting-conflict' | 'possible-setting-conflict' | 'duplicate-setting';

export type Verdict = { kind: PairVerdictKind; pair: [Setter, Setter]; overlap: Overlap; why: string };

/**
 * The verdict on one pair of policies setting one setting: a conflict where the values differ and a
 * device or user is proven reached by both; possible where either cannot be told; a duplicate where
 * the values are the same and the overlap is proven; nothing otherwise. "What applies" judges a
 * device's policies with it too (src/core/applies/conflicts.ts), the overlap being what it decided.
 */
export function judgePair(settingDefinitionId: string, a: Setter, b: Setter, overlap: Overlap, security: boolean): Verdict | null {
  if (overlap.kind === 'disjoint') return null;
  const secret = a.value.secret || b.value.secret;
  const same = !secret && a.value.value === b.value.value;
  // The rest of a merged device control setting, the same in both: part of the merge, not a duplicate to take out.
  if (same)
    return overlap.kind === 'overlap' && !DEVICE_CONTROL_MERGED_PART.test(settingDefinitionId)
      ? { kind: 'duplicate-setting', pair: [a, b], overlap, why: 'both set the same value' }
      : null;
  if (secret) return { kind: 'possible-setting-conflict', pair: [a, b], overlap, why: 'the values are secret and are never read, so they cannot be compared' };
  if (overlap.kind === 'possible')
    return { kind: 'possible-setting-conflict', pair: [a, b], overlap, why: 'the values differ, and whether a device or user gets both could not be told' };
  if (DEVICE_IDS_PREVENTED.test(settingDefinitionId)) return { kind: 'possible-setting-conflict', pair: [a, b], overlap, why: DEVICE_IDS_DOUBT };
  if (DEVICE_CONTROL_MERGED_PART.test(settingDefinitionId)) return { kind: 'possible-setting-conflict', pair: [a, b], overlap, why: DEVICE_CONTROL_PART_DOUBT };
  return { kind: security ? 'security-setting-conflict' : 'setting-conflict', pair: [a, b], overlap, why: 'the values differ, so Intune applies neither' };
}

/**
 * Adds one policy's settings to an index of each setting's setters, by `settingDefinitionId`: a
 * setting a policy sets twice (two entries of one list are folded by setting-values.ts) counts once.
 */
export function indexSetters<S extends Setter>(index: Map<string, S[]>, values: readonly SettingValue[], setterOf: (value: SettingValue) => S): void {
  const seen = new Set<string>();
  for (const value of values) {
    if (seen.has(value.settingDefinitionId)) continue;
    seen.add(value.settingDefinitionId);
    const setters = index.get(value.settingDefinitionId);
    if (setters) setters.push(setterOf(value));
    else index.set(value.settingDefinitionId, [setterOf(value)]);
  }
}
