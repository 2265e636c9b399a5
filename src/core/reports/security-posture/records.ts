/**
 * Report 3's records: the settings catalog policies with what they set, the intent-era baselines and
 * their templates, as its load (load.ts) reads them. Report 7 and "what applies" judge the same
 * policies, so they import them from here, never report 3's load.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { OptionalRead } from '../optional-read.js';
import type { AuditLog } from '../../audit-story/audit-story.js';
import type { ChoiceValue } from '../../policy-settings/settings-read.js';
import type { SettingValue } from '../../policy-settings/setting-values.js';

/** One of a policy's assignments, kept to what decides whether it reaches anyone. */
export interface PolicyAssignment {
  /** The target's `@odata.type` without the namespace (`groupAssignmentTarget`), or null when Graph sent none. */
  targetType: string | null;
  /** `direct` or `policySets` (deviceAndAppManagementAssignmentSource); null when absent. */
  source: string | null;
}

export interface SecurityPolicy {
  id: string;
  name: string;
  templateFamily: string;
  templateId: string;
  templateDisplayName: string | null;
  templateDisplayVersion: string | null;
  /** Graph's read-only `isAssigned`, or null when the payload left it out. */
  isAssigned: boolean | null;
  /** The expanded `assignments`, or null when the payload left them out. */
  assignments: PolicyAssignment[] | null;
  technologies: string;
  platforms: string;
  /** Only the ASR and firewall choices; other settings are dropped as the page arrives. */
  choices: ChoiceValue[];
  /**
   * Every setting it sets, normalised, a secret only as "set" (src/core/policy-settings/setting-values.ts): not read by this
   * report's rules, but kept for the setting conflicts report, which shares this load. Absent where
   * the settings were not read.
   */
  values?: SettingValue[];
  /**
   * The display names of the settings in `values`, by `settingDefinitionId`, from the definitions
   * Graph expanded with the settings (`settingNames`): a setting without one is named by its id.
   * Absent where the settings were not read.
   */
  settingNames?: Record<string, string>;
  /** When the policy last changed (Graph's `lastModifiedDateTime`), or null: what decides whether its kept settings still hold. */
  lastModifiedDateTime: string | null;
  /** Graph's `settingCount` ("Number of settings"), or null when it is not reported. */
  settingCount: number | null;
  /** How many top-level settings were read, from the expansion or from `/settings`. */
  settingsRead: number;
  /** Whether the settings read ran to its last page (no `nextLink` left unfollowed). */
  settingsPaged: boolean;
  /** Why the policy's `/settings` could not be read again, or null when it was not needed or succeeded. */
  settingsError: string | null;
  /** The policy's scope tags (`roleScopeTagIds`), or null when Graph sent none: what the viewer scope filters its rows by. */
  roleScopeTagIds?: string[] | null;
}

export type Intent = Pick<
  Beta.DeviceManagementIntent,
  'id' | 'displayName' | 'templateId' | 'isMigratingToConfigurationPolicy' | 'isAssigned' | 'lastModifiedDateTime' | 'roleScopeTagIds'
>;
export type Template = Pick<
  Beta.DeviceManagementTemplate,
  'id' | 'displayName' | 'templateType' | 'templateSubtype' | 'platformType' | 'versionInfo' | 'publishedDateTime' | 'isDeprecated'
>;

/** A settings catalog template of the baseline family (deviceManagementConfigurationPolicyTemplate, beta). */
export type PolicyTemplate = Pick<
  Beta.DeviceManagementConfigurationPolicyTemplate,
  'id' | 'baseId' | 'version' | 'displayName' | 'displayVersion' | 'lifecycleState' | 'templateFamily' | 'technologies'
>;

/** The baseline templates, or why they could not be read: a failed read is "could not check", never "current". */
/** The baseline templates, or why they could not be read. */
export type PolicyTemplates = OptionalRead<PolicyTemplate[]>;

export interface SecurityPostureRecords {
  policies: SecurityPolicy[];
  intents: Intent[];
  templates: Template[];
  policyTemplates: PolicyTemplates;
  /** Intune's audit log since the oldest policy's or baseline's last change, for the findings' stories; absent when none was read. */
  auditLog?: AuditLog;
}
