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
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { DELETED_GROUP_READ, GROUP_READ } from '../../directory/reads.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import { AUDIT_EVENTS_READ } from '../../audit-story/reads.js';

/** intune-deviceconfig-deviceconfiguration-list: DeviceManagementConfiguration.Read.All. */
export const DEVICE_CONFIGURATIONS_READ = {
  path: '/v1.0/deviceManagement/deviceConfigurations',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName'] satisfies readonly (keyof Graph.DeviceConfiguration)[],
  optional: false,
  betaTwin: true,
  why: 'Configuration profiles and their assignments.',
} as const satisfies UpstreamRead;

/** intune-deviceconfig-devicecompliancepolicy-list: DeviceManagementConfiguration.Read.All. */
export const COMPLIANCE_POLICIES_READ = {
  path: '/v1.0/deviceManagement/deviceCompliancePolicies',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName'] satisfies readonly (keyof Graph.DeviceCompliancePolicy)[],
  optional: false,
  betaTwin: true,
  why: 'Compliance policies and their assignments.',
} as const satisfies UpstreamRead;

/** intune-deviceconfigv2-devicemanagementconfigurationpolicy-list?view=graph-rest-beta: DeviceManagementConfiguration.Read.All. */
export const SETTINGS_CATALOG_READ = {
  path: '/beta/deviceManagement/configurationPolicies',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'name', 'isAssigned', 'technologies', 'templateReference', 'platforms'] satisfies readonly (keyof Beta.DeviceManagementConfigurationPolicy)[],
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
  permissions: ['DeviceManagementApps.Read.All'],
  optional: false,
  betaTwin: true,
  why: 'Apps and their assignments.',
} as const satisfies UpstreamRead;

/** intune-shared-devicemanagementscript-list?view=graph-rest-beta: DeviceManagementScripts.Read.All on the current page. */
export const PLATFORM_SCRIPTS_READ = {
  path: '/beta/deviceManagement/deviceManagementScripts',
  permissions: ['DeviceManagementScripts.Read.All'],
  select: ['id', 'displayName'] satisfies readonly (keyof Beta.DeviceManagementScript)[],
  optional: false,
  why: 'Platform scripts and their assignments.',
} as const satisfies UpstreamRead;

/** intune-devices-devicehealthscript-list?view=graph-rest-beta: DeviceManagementScripts.Read.All on the current page. */
export const REMEDIATIONS_READ = {
  path: '/beta/deviceManagement/deviceHealthScripts',
  permissions: ['DeviceManagementScripts.Read.All'],
  select: ['id', 'displayName', 'isGlobalScript'] satisfies readonly (keyof Beta.DeviceHealthScript)[],
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
  permissions: ['DeviceManagementApps.Read.All', 'DeviceManagementConfiguration.Read.All'],
  optional: true,
  why: 'Which unassigned Win32 apps are installed anyway, as a dependency or a supersedence of an assigned one.',
} as const satisfies UpstreamRead;

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
    permissions: ['DeviceManagementConfiguration.Read.All'],
    select: BETA_ASSIGNMENT_FIELDS.deviceConfiguration,
    optional: true,
    why: "A profile's assignment filters, which /v1.0 does not show.",
  },
  compliancePolicy: {
    path: '/beta/deviceManagement/deviceCompliancePolicies/{id}/assignments',
    permissions: ['DeviceManagementConfiguration.Read.All'],
    select: BETA_ASSIGNMENT_FIELDS.compliancePolicy,
    optional: true,
    why: "A compliance policy's assignment filters, which /v1.0 does not show.",
  },
  mobileApp: {
    path: '/beta/deviceAppManagement/mobileApps/{id}/assignments',
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
  APP_RELATIONSHIPS_READ,
  ASSIGNMENT_FILTERS_READ,
  ...Object.values(BETA_ASSIGNMENTS_READS),
  GROUP_READ,
  DELETED_GROUP_READ,
  AUDIT_EVENTS_READ,
];
