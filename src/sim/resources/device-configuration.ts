import type { DeclaredProperties } from '../declared-properties.js';
import * as entity from '../entity-properties.js';
import * as updates from '../entity-properties-updates.js';
import { BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES, BETA_ONLY_SCOPE_TAG_PROPERTIES, BETA_ONLY_COMPLIANCE_POLICY_TYPES, BETA_ONLY_DEVICE_CONFIGURATION_TYPES } from '../v1-schema.js';
import { BETA, BOTH, CONFIGURATION_PERMISSIONS, objectAssignments } from './resource-model.js';
import type { SimNestedResource, SimResource } from './resource-model.js';

/**
 * Intune's device management configuration: profiles, compliance policies, the settings catalog and
 * its templates, security baselines (intents and their templates), assignment filters and scripts
 * (reports 2 and 3, and what applies). Each with the permissions Microsoft's current Graph pages
 * list for its application caller.
 */

export const DEVICE_CONFIGURATIONS = {
  kind: 'collection',
  path: '/deviceManagement/deviceConfigurations',
  source: 'deviceConfigurations',
  versions: BOTH,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/deviceConfigurations',
  navigation: ['assignments'],
  defaultPageSize: 100,
  v1Omits: { types: new Set(BETA_ONLY_DEVICE_CONFIGURATION_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES, properties: BETA_ONLY_SCOPE_TAG_PROPERTIES },
  properties: entity.DEVICE_CONFIGURATION,
} as const satisfies SimResource;

export const DEVICE_COMPLIANCE_POLICIES = {
  kind: 'collection',
  path: '/deviceManagement/deviceCompliancePolicies',
  source: 'deviceCompliancePolicies',
  versions: BOTH,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/deviceCompliancePolicies',
  navigation: ['assignments'],
  defaultPageSize: 100,
  v1Omits: { types: new Set(BETA_ONLY_COMPLIANCE_POLICY_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES, properties: BETA_ONLY_SCOPE_TAG_PROPERTIES },
  properties: entity.DEVICE_COMPLIANCE_POLICY,
} as const satisfies SimResource;

/**
 * Settings catalog policies page at 25 (`"@odata.count": 25` and a nextLink on the first page, as
 * admins report in ugurkocde/IntuneAssignmentChecker#28 and ThomasKur/M365Documentation#45; the
 * policy's `/settings` pages at 25 too, jseerden/IntuneBackupAndRestore#88), and with `settings`
 * expanded at one or two policies a page. No documentation says `$top` raises either, so `$top` is
 * accepted (scripts send `$top=999`) but never makes a page larger: the strict case.
 */
const CONFIGURATION_POLICY_PAGING = { defaultPageSize: 25, maxPageSize: 25, expandedPageSize: { settings: 2 } } as const;

export const CONFIGURATION_POLICIES = {
  kind: 'collection',
  path: '/deviceManagement/configurationPolicies',
  source: 'configurationPolicies',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/configurationPolicies',
  navigation: ['assignments', 'settings'],
  ...CONFIGURATION_POLICY_PAGING,
  // Graph documents no limit on `$expand=settings`; the strict case is that an expansion holds
  // no more than one page of `/settings` (25) and points on to the rest, so a policy with more
  // settings is read whole only by a client that follows `settings@odata.nextLink`.
  expandedItemCap: { settings: 25 },
  // An expanded setting is a deviceManagementConfigurationSetting, whose `settingDefinitions` is a
  // navigation property of its own (resources/intune-deviceconfigv2-devicemanagementconfigurationsetting,
  // ?view=graph-rest-beta): not inside `$expand=settings` unless expanded in turn.
  expandedNavigation: { settings: ['settingDefinitions'] },
  properties: entity.CONFIGURATION_POLICY,
} as const satisfies SimResource;

/**
 * Assignment filters: beta only, as v1.0 `deviceManagement` has no `assignmentFilters`
 * (intune-policyset-deviceandappmanagementassignmentfilter-list, ?view=graph-rest-beta:
 * DeviceManagementConfiguration.*). `platform` (`devicePlatformType`) has
 * `windowsMobileApplicationManagement` after `unknownFutureValue`
 * (resources/intune-policyset-deviceandappmanagementassignmentfilter, ?view=graph-rest-beta).
 */
export const ASSIGNMENT_FILTERS = {
  kind: 'collection',
  path: '/deviceManagement/assignmentFilters',
  source: 'assignmentFilters',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/assignmentFilters',
  navigation: [],
  defaultPageSize: 100,
  evolvableEnums: { platform: ['windowsMobileApplicationManagement'] },
  properties: entity.ASSIGNMENT_FILTER,
} as const satisfies SimResource;

// The current pages list DeviceManagementScripts.* for both script collections (docs/finding-rules.md, report 2).
const SCRIPTS_PERMISSIONS = ['DeviceManagementScripts.Read.All', 'DeviceManagementScripts.ReadWrite.All'];

export const DEVICE_MANAGEMENT_SCRIPTS = {
  kind: 'collection',
  path: '/deviceManagement/deviceManagementScripts',
  source: 'deviceManagementScripts',
  versions: BETA,
  permissions: SCRIPTS_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/deviceManagementScripts',
  navigation: ['assignments'],
  defaultPageSize: 100,
  properties: entity.DEVICE_MANAGEMENT_SCRIPT,
} as const satisfies SimResource;

export const DEVICE_HEALTH_SCRIPTS = {
  kind: 'collection',
  path: '/deviceManagement/deviceHealthScripts',
  source: 'deviceHealthScripts',
  versions: BETA,
  permissions: SCRIPTS_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/deviceHealthScripts',
  navigation: ['assignments'],
  defaultPageSize: 100,
  properties: entity.DEVICE_HEALTH_SCRIPT,
} as const satisfies SimResource;

export const INTENTS = {
  kind: 'collection',
  path: '/deviceManagement/intents',
  source: 'intents',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/intents',
  navigation: ['assignments', 'settings'],
  defaultPageSize: 100,
} as const satisfies SimResource;

export const TEMPLATES = {
  kind: 'collection',
  path: '/deviceManagement/templates',
  source: 'templates',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/templates',
  navigation: [],
  defaultPageSize: 100,
} as const satisfies SimResource;

/**
 * The settings catalog's templates (deviceManagementConfigurationPolicyTemplate, beta only;
 * learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationpolicytemplate-list,
 * DeviceManagementConfiguration.Read.All). Graph documents no `$filter` on the list, but the admin
 * center and community tools filter it on `templateFamily` and `lifecycleState`; only the first is
 * accepted here. The page size is not documented: small pages, so a client that stops at the first
 * misses templates.
 */
export const CONFIGURATION_POLICY_TEMPLATES = {
  kind: 'collection',
  path: '/deviceManagement/configurationPolicyTemplates',
  source: 'configurationPolicyTemplates',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/configurationPolicyTemplates',
  navigation: ['settingTemplates'],
  defaultPageSize: 10,
  filterable: ['templateFamily'],
} as const satisfies SimResource;

/**
 * A settings catalog policy's `/settings`, served on its own path
 * (intune-deviceconfigv2-devicemanagementconfigurationsetting-list, beta), each setting's
 * `settingDefinitions` (its own and its children's definitions) only to `$expand=settingDefinitions`,
 * that navigation property of deviceManagementConfigurationSetting
 * (resources/intune-deviceconfigv2-devicemanagementconfigurationsetting?view=graph-rest-beta). It pages at 25 whatever
 * `$top` asks, as admins report (jseerden/IntuneBackupAndRestore#88: "saved only 25 settings"
 * without the nextLink; Microsoft365DSC/Microsoft365DSC#5921).
 */
export const CONFIGURATION_POLICY_SETTINGS: SimNestedResource = {
  kind: 'nested',
  path: '/deviceManagement/configurationPolicies/{id}/settings',
  source: 'configurationPolicies',
  property: 'settings',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: "deviceManagement/configurationPolicies('{id}')/settings",
  navigation: ['settingDefinitions'],
  defaultPageSize: 25,
  maxPageSize: 25,
};

/**
 * What devices reported in conflict between device configuration profiles
 * (deviceConfigurationConflictSummary, beta only:
 * learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationconflictsummary-list?view=graph-rest-beta,
 * DeviceManagementConfiguration.Read.All or its ReadWrite form). Each entry's `id` is the ids of its
 * `conflictingDeviceConfigurations` in lexicographical order joined by underscores
 * (resources/intune-deviceconfig-deviceconfigurationconflictsummary?view=graph-rest-beta). Graph
 * documents no `$filter`, `$select` nor page size for it: any `$filter` is refused, and pages hold
 * the usual 100 with a nextLink to the rest, so a client that stops at the first misses entries.
 */
export const DEVICE_CONFIGURATION_CONFLICT_SUMMARY = {
  kind: 'collection',
  path: '/deviceManagement/deviceConfigurationConflictSummary',
  source: 'deviceConfigurationConflictSummary',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/deviceConfigurationConflictSummary',
  navigation: [],
  defaultPageSize: 100,
  maxPageSize: 100,
} as const satisfies SimResource;

export const DEVICE_CONFIGURATION_ASSIGNMENTS = objectAssignments(DEVICE_CONFIGURATIONS, entity.DEVICE_CONFIGURATION_ASSIGNMENT);

export const DEVICE_COMPLIANCE_POLICY_ASSIGNMENTS = objectAssignments(DEVICE_COMPLIANCE_POLICIES, entity.DEVICE_COMPLIANCE_POLICY_ASSIGNMENT);

/**
 * The assignable objects only beta declares, each with `$expand=assignments` (its `assignments`
 * navigation property, whose targets carry the filter fields on beta) and the permissions its
 * Graph page lists for an application (all ?view=graph-rest-beta):
 * intune-grouppolicy-grouppolicyconfiguration-list, intune-softwareupdate-windowsfeatureupdateprofile-list,
 * …-windowsqualityupdateprofile-list, …-windowsqualityupdatepolicy-list, …-windowsdriverupdateprofile-list,
 * intune-deviceconfigv2-devicemanagementcompliancepolicy-list (DeviceManagementConfiguration.*);
 * intune-devices-deviceshellscript-list (DeviceManagementScripts.*). None is in the v1.0 schema
 * (the `@microsoft/microsoft-graph-types` package declares none of these types), so `/v1.0` answers
 * them as it answers any path it does not know. Graph documents no page size for them: the usual 100.
 */
function betaAssignable<const Source extends string>(
  path: string,
  source: Source,
  permissions: readonly string[],
  properties: DeclaredProperties,
): SimResource & { kind: 'collection'; source: Source } {
  return {
    kind: 'collection',
    path,
    source,
    versions: BETA,
    permissions,
    workload: 'intune',
    entitySet: path.slice(1),
    navigation: ['assignments'],
    defaultPageSize: 100,
    properties,
  };
}

export const GROUP_POLICY_CONFIGURATIONS = betaAssignable(
  '/deviceManagement/groupPolicyConfigurations',
  'groupPolicyConfigurations',
  CONFIGURATION_PERMISSIONS,
  entity.GROUP_POLICY_CONFIGURATION,
);
export const DEVICE_SHELL_SCRIPTS = betaAssignable('/deviceManagement/deviceShellScripts', 'deviceShellScripts', SCRIPTS_PERMISSIONS, entity.DEVICE_SHELL_SCRIPT);
export const WINDOWS_FEATURE_UPDATE_PROFILES = betaAssignable(
  '/deviceManagement/windowsFeatureUpdateProfiles',
  'windowsFeatureUpdateProfiles',
  CONFIGURATION_PERMISSIONS,
  updates.WINDOWS_FEATURE_UPDATE_PROFILE,
);
export const WINDOWS_QUALITY_UPDATE_PROFILES = betaAssignable(
  '/deviceManagement/windowsQualityUpdateProfiles',
  'windowsQualityUpdateProfiles',
  CONFIGURATION_PERMISSIONS,
  updates.WINDOWS_QUALITY_UPDATE_PROFILE,
);
export const WINDOWS_QUALITY_UPDATE_POLICIES = betaAssignable(
  '/deviceManagement/windowsQualityUpdatePolicies',
  'windowsQualityUpdatePolicies',
  CONFIGURATION_PERMISSIONS,
  updates.WINDOWS_QUALITY_UPDATE_POLICY,
);
export const WINDOWS_DRIVER_UPDATE_PROFILES = betaAssignable(
  '/deviceManagement/windowsDriverUpdateProfiles',
  'windowsDriverUpdateProfiles',
  CONFIGURATION_PERMISSIONS,
  updates.WINDOWS_DRIVER_UPDATE_PROFILE,
);
export const COMPLIANCE_POLICIES_V2 = betaAssignable('/deviceManagement/compliancePolicies', 'compliancePolicies', CONFIGURATION_PERMISSIONS, entity.COMPLIANCE_POLICY_V2);
