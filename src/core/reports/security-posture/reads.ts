/**
 * Report 3's Graph reads: the settings catalog policies with their assignments, each policy's
 * `/settings` through `$batch`, the settings catalog's baseline templates, and the intent-era
 * baselines with their templates, all beta only and read with DeviceManagementConfiguration.Read.All
 * (the settings catalog and intents pages, e.g. intune-deviceconfigv2-devicemanagementconfigurationpolicy-list?view=graph-rest-beta);
 * and Intune's audit log for the findings' stories (src/core/audit-story).
 */

import type { UpstreamRead } from '../../graph/upstream-read.js';
import type { GraphApplicationPermission } from '../../graph/graph-permissions.js';
import { AUDIT_EVENTS_READ } from '../../audit-story/reads.js';
import { POLICY_SETTINGS_READ } from '../../policy-settings/reads.js';

/**
 * The policy list's fields the rules, rows and links read, with `$expand=assignments`. Settings are
 * not expanded on the list: Graph then pages it at one or two policies a page whatever `$top` asks
 * (docs/contract.md, "Upstream reads"); they are read per policy through `$batch` instead.
 */
export const SECURITY_POLICIES_READ = {
  path: '/beta/deviceManagement/configurationPolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationpolicy-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  // `roleScopeTagIds`: the policy's scope tags, beta only like the list, for the viewer scope (docs/finding-rules.md, "Viewer scope").
  select: ['id', 'name', 'platforms', 'technologies', 'templateReference', 'settingCount', 'lastModifiedDateTime', 'isAssigned', 'roleScopeTagIds'],
  optional: false,
  why: 'The endpoint security policies and baselines, and whether they are assigned.',
} as const satisfies UpstreamRead;

/** The settings catalog's templates (intune-deviceconfigv2-devicemanagementconfigurationpolicytemplate-list?view=graph-rest-beta), for the baselines' newest versions. */
export const BASELINE_TEMPLATES_READ = {
  path: '/beta/deviceManagement/configurationPolicyTemplates',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationpolicytemplate-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'Which version of each settings catalog baseline is the newest.',
} as const satisfies UpstreamRead;

/** The intent-era security baselines and endpoint security policies (intune-deviceintent-devicemanagementintent-list?view=graph-rest-beta). */
export const INTENTS_READ = {
  path: '/beta/deviceManagement/intents',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceintent-devicemanagementintent-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: false,
  why: 'The intent-era baselines, their templates and whether they migrate.',
} as const satisfies UpstreamRead;

/** The intents' templates (intune-deviceintent-devicemanagementtemplate-list?view=graph-rest-beta), for their versions. */
export const TEMPLATES_READ = {
  path: '/beta/deviceManagement/templates',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceintent-devicemanagementtemplate-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  optional: false,
  why: "Each intent-era baseline's template version, and whether it is deprecated.",
} as const satisfies UpstreamRead;

export const SECURITY_POSTURE_READS: readonly UpstreamRead[] = [
  SECURITY_POLICIES_READ,
  POLICY_SETTINGS_READ,
  BASELINE_TEMPLATES_READ,
  INTENTS_READ,
  TEMPLATES_READ,
  AUDIT_EVENTS_READ,
];

/** The permission report 3 cannot do without; report 7, built on it, needs it too. */
export const SECURITY_POSTURE_PERMISSIONS: readonly GraphApplicationPermission[] = ['DeviceManagementConfiguration.Read.All'];
