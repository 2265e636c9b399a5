/**
 * The policies whose settings are compared for conflicts, as report 7 and "what applies" both take
 * them from report 3's records: each with every value it sets, or why its settings were not read
 * whole (a policy not read whole is never judged on them), and the kinds of object whose settings
 * are not read at all.
 */

import { intuneLinks } from '../reports/intune-links.js';
import type { AssignableObject } from '../reports/assignment-hygiene/records.js';
import type { SecurityPolicy, SecurityPostureRecords } from '../reports/security-posture/records.js';
import { isAuditOnly } from './settings-read.js';
import type { SettingValue } from './setting-values.js';

/** A settings catalog, endpoint security or baseline policy (report 3's policy list and settings), or a device restrictions profile (classic-profiles.ts), and what it sets. */
export interface ConflictPolicy {
  id: string;
  name: string;
  /** `templateReference.templateFamily`: `endpointSecurity…` and `baseline` make a conflict a security one. */
  templateFamily: string;
  platforms: string;
  /** What it sets, or null when its settings could not be read whole (`settingsError` says why). */
  values: SettingValue[] | null;
  settingsError: string | null;
  /** Its page in the Intune admin center. */
  link: string | null;
}

/** The object kinds that set settings report 7 and "what applies" do not read, by their admin-center names (singular, plural). */
export const UNCOMPARED_KIND_WORDS: ReadonlyArray<[AssignableObject['kind'], string, string]> = [
  ['deviceConfiguration', 'configuration profile', 'configuration profiles'],
  ['administrativeTemplate', 'Administrative Template', 'Administrative Templates'],
  // Intents: security baselines and endpoint security policies made from the older templates, before the settings catalog's format.
  ['intent', 'security baseline or endpoint security policy of the older templates', 'security baselines and endpoint security policies of the older templates'],
];

/** The kinds whose settings are not read, so never compared (`UNCOMPARED_KIND_WORDS`): one list for report 7 and "what applies". */
export const UNCOMPARED_KINDS: ReadonlySet<AssignableObject['kind']> = new Set(UNCOMPARED_KIND_WORDS.map(([kind]) => kind));

function policyLink(policy: SecurityPolicy): string {
  return intuneLinks.configurationPolicy({
    id: policy.id,
    isAssigned: policy.isAssigned ?? true,
    technologies: policy.technologies,
    templateId: policy.templateId,
    platforms: policy.platforms,
  });
}

/**
 * Report 3's policies as the conflict rules read them. An audit-only baseline (STIG) enforces nothing,
 * so it sets nothing that can conflict; a policy whose settings were not read whole is not judged.
 */
export function conflictPolicies(posture: Pick<SecurityPostureRecords, 'policies'>): ConflictPolicy[] {
  return posture.policies
    .filter((policy) => !isAuditOnly(policy))
    .map((policy) => {
      const whole = policy.settingsPaged && readWhole(policy, policy.settingCount);
      return {
        id: policy.id,
        name: policy.name,
        templateFamily: policy.templateFamily,
        platforms: policy.platforms,
        values: whole ? (policy.values ?? []) : null,
        settingsError: whole ? null : (policy.settingsError ?? 'its settings were not read in full'),
        link: policyLink(policy),
      };
    });
}

/**
 * Whether a read of a policy's settings holds all of them: it did not fail, and where Graph counts
 * settings (`settingCount`) and counts some, it read some. "What applies" judges the policies it
 * reads alone by the same rule (src/core/applies/settings-read.ts).
 */
export function readWhole(read: { settingsError: string | null; settingsRead: number }, settingCount: number | null | undefined): boolean {
  return read.settingsError === null && (settingCount === null || settingCount === undefined || settingCount === 0 || read.settingsRead > 0);
}

/**
 * The settings' display names, from the definitions report 3 read with each policy's settings
 * (settings-read.ts, `settingNames`): the first a policy gave for an id. A setting none gave
 * a name for is named by its id.
 */
export function definitionNames(posture: Pick<SecurityPostureRecords, 'policies'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const policy of posture.policies) {
    for (const [id, name] of Object.entries(policy.settingNames ?? {})) if (!names.has(id)) names.set(id, name);
  }
  return names;
}
