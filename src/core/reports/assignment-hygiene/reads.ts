/**
 * Report 2's Graph reads: every assignable kind of object with `$expand=assignments`, the Win32 app
 * relationships and assignment filters, a few objects' assignments again on beta, the groups the
 * assignments name (src/core/directory) and Intune's audit log (src/core/audit-story).
 * Permissions are those of each call's Graph page that the product holds (docs/finding-rules.md, report 2).
 *
 * Each `$select` is every field the load reads (`id`, the kind's name, a built-in script's flag),
 * beside `$expand=assignments`, which `$select` does not drop (OData 4.01 Protocol, "System Query
 * Option $select": expanded navigation properties must be returned even when not selected).
 * `@odata.type` is control information, sent for an item of a derived type whatever is selected
 * (OData 4.01 JSON Format, "Control Information: type"). None where the items need a property of a
 * derived type: `$select` on a base type's list refuses it.
 *
 * `roleScopeTagIds` is each object's scope tags, for the viewer scope (docs/finding-rules.md, "Viewer
 * scope"). Every type read here declares it on beta; none of the three read on `/v1.0` does there
 * (the v1.0 and beta metadata, as `src/sim/entity-properties.ts` lists it;
 * learn.microsoft.com/graph/api/resources/intune-shared-deviceconfiguration?view=graph-rest-beta
 * against ?view=graph-rest-1.0), so those three select it on their beta twin only (`betaSelect`),
 * and apps and intents, read without a `$select`, carry it on beta only.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { DELETED_GROUP_READ, GROUP_READ } from '../../directory/reads.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import type { GraphApplicationPermission } from '../../graph/graph-permissions.js';
import { AUDIT_EVENTS_READ } from '../../audit-story/reads.js';
import { INTENTS_READ, TEMPLATES_READ } from '../security-posture/reads.js';

/** intune-deviceconfig-deviceconfiguration-list: DeviceManagementConfiguration.Read.All. */
export const DEVICE_CONFIGURATIONS_READ = {
  path: '/v1.0/deviceManagement/deviceConfigurations',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfiguration-list',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName'] satisfies readonly (keyof Graph.DeviceConfiguration)[],
  optional: false,
  betaTwin: true,
  betaSelect: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceConfiguration)[],
  why: 'Configuration profiles and their assignments.',
} as const satisfies UpstreamRead;

/** intune-deviceconfig-devicecompliancepolicy-list: DeviceManagementConfiguration.Read.All. */
export const COMPLIANCE_POLICIES_READ = {
  path: '/v1.0/deviceManagement/deviceCompliancePolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-devicecompliancepolicy-list',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName'] satisfies readonly (keyof Graph.DeviceCompliancePolicy)[],
  optional: false,
  betaTwin: true,
  betaSelect: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceCompliancePolicy)[],
  why: 'Compliance policies and their assignments.',
} as const satisfies UpstreamRead;

/** intune-deviceconfigv2-devicemanagementconfigurationpolicy-list?view=graph-rest-beta: DeviceManagementConfiguration.Read.All. */
export const SETTINGS_CATALOG_READ = {
  path: '/beta/deviceManagement/configurationPolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationpolicy-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  // `settingCount`: "what applies" reads no settings of a policy that has none.
  select: [
    'id',
    'name',
    'isAssigned',
    'technologies',
    'templateReference',
    'platforms',
    'settingCount',
    'roleScopeTagIds',
  ] satisfies readonly (keyof Beta.DeviceManagementConfigurationPolicy)[],
  optional: false,
  why: 'Settings catalog policies and their assignments.',
} as const satisfies UpstreamRead;

/**
 * intune-apps-mobileapp-list: DeviceManagementApps.Read.All. No `$select`: a catalogue app is told
 * by `appAvailability`, a property of the derived `managedApp`, which Graph refuses on the
 * `mobileApp` list ("Could not find a property named 'displayVersion' on type
 * 'microsoft.graph.mobileApp'", msgraph-beta-sdk-dotnet#563).
 */
export const MOBILE_APPS_READ = {
  path: '/v1.0/deviceAppManagement/mobileApps',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-apps-mobileapp-list',
  permissions: ['DeviceManagementApps.Read.All'],
  optional: false,
  betaTwin: true,
  why: 'Apps and their assignments.',
} as const satisfies UpstreamRead;

/** intune-shared-devicemanagementscript-list?view=graph-rest-beta: DeviceManagementScripts.Read.All on the current page. */
export const PLATFORM_SCRIPTS_READ = {
  path: '/beta/deviceManagement/deviceManagementScripts',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-shared-devicemanagementscript-list?view=graph-rest-beta',
  permissions: ['DeviceManagementScripts.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceManagementScript)[],
  optional: false,
  why: 'Platform scripts and their assignments.',
} as const satisfies UpstreamRead;

/** intune-devices-devicehealthscript-list?view=graph-rest-beta: DeviceManagementScripts.Read.All on the current page. */
export const REMEDIATIONS_READ = {
  path: '/beta/deviceManagement/deviceHealthScripts',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-devicehealthscript-list?view=graph-rest-beta',
  permissions: ['DeviceManagementScripts.Read.All'],
  select: ['id', 'displayName', 'isGlobalScript', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceHealthScript)[],
  optional: false,
  why: "Remediations and their assignments; Microsoft's built-in ones are left out.",
} as const satisfies UpstreamRead;

/**
 * Win32 dependencies and supersedence, tenant-wide, beta only in effect (`/v1.0` declares no
 * subtype; intune-apps-mobileapprelationship-list?view=graph-rest-beta: DeviceManagementApps.Read.All
 * or DeviceManagementConfiguration.Read.All). No `$select`: `dependencyType` and `supersedenceType`
 * belong to the derived types.
 */
export const APP_RELATIONSHIPS_READ = {
  path: '/beta/deviceAppManagement/mobileAppRelationships',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-apps-mobileapprelationship-list?view=graph-rest-beta',
  permissions: ['DeviceManagementApps.Read.All', 'DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'Which unassigned Win32 apps are installed anyway, as a dependency or a supersedence of an assigned one.',
} as const satisfies UpstreamRead;

/**
 * Administrative Templates (ADMX), beta only (intune-grouppolicy-grouppolicyconfiguration-list?view=graph-rest-beta):
 * DeviceManagementConfiguration.Read.All. Windows only: their settings are Windows group policy
 * (ADMX) settings (learn.microsoft.com/mem/intune/configuration/administrative-templates-windows).
 */
export const ADMINISTRATIVE_TEMPLATES_READ = {
  path: '/beta/deviceManagement/groupPolicyConfigurations',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-grouppolicy-grouppolicyconfiguration-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.GroupPolicyConfiguration)[],
  optional: false,
  why: 'Administrative Templates and their assignments.',
} as const satisfies UpstreamRead;

/**
 * macOS shell scripts, beta only (intune-devices-deviceshellscript-list?view=graph-rest-beta):
 * DeviceManagementScripts.Read.All on the current page, as for the platform scripts ("Intune will
 * provide customer the ability to run their Shell scripts on the enrolled Mac OS devices",
 * the deviceShellScript resource).
 */
export const MACOS_SHELL_SCRIPTS_READ = {
  path: '/beta/deviceManagement/deviceShellScripts',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-deviceshellscript-list?view=graph-rest-beta',
  permissions: ['DeviceManagementScripts.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceShellScript)[],
  optional: false,
  why: 'macOS shell scripts and their assignments.',
} as const satisfies UpstreamRead;

/**
 * Windows Update for Business profiles and policies, each beta only, each read with
 * DeviceManagementConfiguration.Read.All (intune-softwareupdate-windowsfeatureupdateprofile-list,
 * …-windowsqualityupdateprofile-list, …-windowsdriverupdateprofile-list and
 * …-windowsqualityupdatepolicy-list, ?view=graph-rest-beta). Quality update *policies* (hotpatch)
 * are a collection of their own beside the expedited quality update *profiles*.
 */
export const FEATURE_UPDATE_PROFILES_READ = {
  path: '/beta/deviceManagement/windowsFeatureUpdateProfiles',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-softwareupdate-windowsfeatureupdateprofile-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.WindowsFeatureUpdateProfile)[],
  optional: false,
  why: 'Windows feature update profiles and their assignments.',
} as const satisfies UpstreamRead;

export const QUALITY_UPDATE_PROFILES_READ = {
  path: '/beta/deviceManagement/windowsQualityUpdateProfiles',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-softwareupdate-windowsqualityupdateprofile-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.WindowsQualityUpdateProfile)[],
  optional: false,
  why: 'Windows expedited quality update profiles and their assignments.',
} as const satisfies UpstreamRead;

export const QUALITY_UPDATE_POLICIES_READ = {
  path: '/beta/deviceManagement/windowsQualityUpdatePolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-softwareupdate-windowsqualityupdatepolicy-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.WindowsQualityUpdatePolicy)[],
  optional: false,
  why: 'Windows quality update (hotpatch) policies and their assignments.',
} as const satisfies UpstreamRead;

export const DRIVER_UPDATE_PROFILES_READ = {
  path: '/beta/deviceManagement/windowsDriverUpdateProfiles',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-softwareupdate-windowsdriverupdateprofile-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'roleScopeTagIds'] satisfies readonly (keyof Beta.WindowsDriverUpdateProfile)[],
  optional: false,
  why: 'Windows driver update profiles and their assignments.',
} as const satisfies UpstreamRead;

/**
 * Settings catalog compliance policies (deviceManagementCompliancePolicy), beta only
 * (intune-deviceconfigv2-devicemanagementcompliancepolicy-list?view=graph-rest-beta):
 * DeviceManagementConfiguration.Read.All. Each is for the platforms its `platforms` names.
 */
export const SETTINGS_COMPLIANCE_READ = {
  path: '/beta/deviceManagement/compliancePolicies',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementcompliancepolicy-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'name', 'platforms', 'roleScopeTagIds'] satisfies readonly (keyof Beta.DeviceManagementCompliancePolicy)[],
  optional: false,
  why: 'Settings catalog compliance policies and their assignments.',
} as const satisfies UpstreamRead;

/**
 * Endpoint security intents and intent-era baselines with their assignments: report 3's reads of
 * `/beta/deviceManagement/intents` and of its templates (each template's `platformType` says which
 * platform its intents are for), shared rather than declared twice.
 */
export { INTENTS_READ, TEMPLATES_READ };

/** The filter fields read: the `$select` and the record type the projection reads both come from here. */
export const FILTER_FIELDS = [
  'id',
  'displayName',
  'assignmentFilterManagementType',
  'platform',
  'rule',
] as const satisfies readonly (keyof Beta.DeviceAndAppManagementAssignmentFilter)[];

/** Assignment filters, beta only (intune-policyset-deviceandappmanagementassignmentfilter-list?view=graph-rest-beta): DeviceManagementConfiguration.Read.All. */
export const ASSIGNMENT_FILTERS_READ = {
  path: '/beta/deviceManagement/assignmentFilters',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-policyset-deviceandappmanagementassignmentfilter-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: FILTER_FIELDS,
  optional: true,
  why: 'The filters on All users and All devices assignments, and their rules (for "what applies").',
} as const satisfies UpstreamRead;

/** What `readTarget` reads of an assignment read on its own: a compliance policy's assignment has no `intent`. */
export const BETA_ASSIGNMENT_FIELDS = {
  deviceConfiguration: ['id', 'intent', 'target'] satisfies readonly (keyof Beta.DeviceConfigurationAssignment)[],
  compliancePolicy: ['id', 'target'] satisfies readonly (keyof Beta.DeviceCompliancePolicyAssignment)[],
  mobileApp: ['id', 'intent', 'target'] satisfies readonly (keyof Beta.MobileAppAssignment)[],
} as const;

/**
 * One object's assignments on beta, where their targets carry the filter fields (List
 * deviceConfigurationAssignments, deviceCompliancePolicyAssignments and mobileAppAssignments,
 * learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationassignment-list?view=graph-rest-beta,
 * …-devicecompliancepolicyassignment-list, intune-apps-mobileappassignment-list): the same permissions
 * as the lists. Only the kinds read on `/v1.0` need them.
 */
export const BETA_ASSIGNMENTS_READS = {
  deviceConfiguration: {
    path: '/beta/deviceManagement/deviceConfigurations/{id}/assignments',
    permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationassignment-list?view=graph-rest-beta',
    permissions: ['DeviceManagementConfiguration.Read.All'],
    select: BETA_ASSIGNMENT_FIELDS.deviceConfiguration,
    optional: true,
    why: "A profile's assignment filters, which /v1.0 does not show.",
  },
  compliancePolicy: {
    path: '/beta/deviceManagement/deviceCompliancePolicies/{id}/assignments',
    permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-devicecompliancepolicyassignment-list?view=graph-rest-beta',
    permissions: ['DeviceManagementConfiguration.Read.All'],
    select: BETA_ASSIGNMENT_FIELDS.compliancePolicy,
    optional: true,
    why: "A compliance policy's assignment filters, which /v1.0 does not show.",
  },
  mobileApp: {
    path: '/beta/deviceAppManagement/mobileApps/{id}/assignments',
    permissionsPage: 'https://learn.microsoft.com/graph/api/intune-apps-mobileappassignment-list?view=graph-rest-beta',
    permissions: ['DeviceManagementApps.Read.All'],
    select: BETA_ASSIGNMENT_FIELDS.mobileApp,
    optional: true,
    why: "An app's assignment filters, which /v1.0 does not show.",
  },
} as const satisfies Record<string, UpstreamRead>;

export const ASSIGNMENT_READS: readonly UpstreamRead[] = [
  DEVICE_CONFIGURATIONS_READ,
  COMPLIANCE_POLICIES_READ,
  SETTINGS_CATALOG_READ,
  MOBILE_APPS_READ,
  PLATFORM_SCRIPTS_READ,
  REMEDIATIONS_READ,
  ADMINISTRATIVE_TEMPLATES_READ,
  MACOS_SHELL_SCRIPTS_READ,
  FEATURE_UPDATE_PROFILES_READ,
  QUALITY_UPDATE_PROFILES_READ,
  QUALITY_UPDATE_POLICIES_READ,
  DRIVER_UPDATE_PROFILES_READ,
  SETTINGS_COMPLIANCE_READ,
  INTENTS_READ,
  TEMPLATES_READ,
  APP_RELATIONSHIPS_READ,
  ASSIGNMENT_FILTERS_READ,
  ...Object.values(BETA_ASSIGNMENTS_READS),
  GROUP_READ,
  DELETED_GROUP_READ,
  AUDIT_EVENTS_READ,
];

/** The permissions report 2 cannot do without; report 7, built on it, needs them too. */
export const ASSIGNMENT_PERMISSIONS: readonly GraphApplicationPermission[] = [
  'DeviceManagementConfiguration.Read.All',
  'DeviceManagementApps.Read.All',
  'DeviceManagementScripts.Read.All',
  'Group.Read.All',
];
