import * as entity from './entity-properties.js';
import type { DeclaredProperties } from './entity-properties.js';
import type { CollectionName, SingletonName } from './tenants/sim-tenant.js';
import {
  BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES,
  BETA_ONLY_COMPLIANCE_POLICY_TYPES,
  BETA_ONLY_DEVICE_CONFIGURATION_TYPES,
  BETA_ONLY_MANAGED_DEVICE_PROPERTIES,
  BETA_ONLY_MOBILE_APP_RELATIONSHIP_TYPES,
  BETA_ONLY_MOBILE_APP_TYPES,
  BETA_ONLY_MTD_PARTNER_STATES,
  BETA_ONLY_VPP_TOKEN_PROPERTIES,
} from './v1-schema.js';

/**
 * Throttling scopes, after Microsoft's published limits (learn.microsoft.com/graph/throttling-limits):
 * Intune "device configuration" and "applications" 1,000 requests per 20 s per app per tenant,
 * Intune "devices" 2,000 per 20 s; identity (groups) by resource units per 10 s.
 */
export type Workload = 'intune' | 'intune-devices' | 'directory' | 'identity';

export type VersionSegment = 'v1.0' | 'beta';

export type SimResource = (ResourceBase & { kind: 'collection'; source: CollectionName }) | (ResourceBase & { kind: 'singleton'; source: SingletonName });

/**
 * A navigation collection of one record served as a list of its own, `<parent path>/{id}/<property>`
 * (a settings catalog policy's `/settings`): the records are the parent's `property` array.
 */
export type SimNestedResource = ResourceBase & { kind: 'nested'; source: CollectionName; property: string };

interface ResourceBase {
  /** Path after the version segment. */
  path: string;
  versions: readonly VersionSegment[];
  /** Any one of these application permissions (compared exactly, as `hasAnyRole` says) grants the read. */
  permissions: readonly string[];
  workload: Workload;
  /** Entity set name for `@odata.context`. */
  entitySet: string;
  /** Navigation properties `$expand` may name; they are never returned unexpanded. */
  navigation: readonly string[];
  defaultPageSize: number;
  /**
   * Pages the service keeps small whatever `$top` asks, per expanded navigation property: Intune
   * sends settings catalog policies one or two a page once their settings are expanded.
   */
  expandedPageSize?: Readonly<Record<string, number>>;
  /** The most records a page holds whatever `$top` asks (the service's own page size). */
  maxPageSize?: number;
  /** The LAPS and BitLocker list pages document `User-Agent` as a required header. */
  requiresUserAgent?: boolean;
  /** "This method does not support the $top query parameter" (bitlocker-list-recoverykeys). */
  rejectsTop?: boolean;
  /**
   * Evolvable enums: per property, the members declared after `unknownFutureValue`. Graph sends them
   * as `unknownFutureValue` unless the request says `Prefer: include-unknown-enum-members`
   * (learn.microsoft.com/graph/best-practices-concept#handling-future-members-in-evolvable-enumerations).
   */
  evolvableEnums?: Readonly<Record<string, readonly string[]>>;
  /** What the `/v1.0` schema lacks and so leaves out of this resource there (see v1-schema.ts). */
  v1Omits?: V1Omissions;
  /**
   * Per expanded navigation property, the most items one record carries; the rest is left behind
   * an `<property>@odata.nextLink` to the record's own list of them (OData JSON format, "Expanded
   * Navigation Property": a partial collection carries a next link).
   */
  expandedItemCap?: Readonly<Record<string, number>>;
  /** Properties `$filter=<property> eq '<value>'` may name; any other `$filter` is a 400. */
  filterable?: readonly string[];
  /**
   * Timestamp properties a date range may name: `$filter=<property> ge <DateTimeOffset>`, or `gt`,
   * optionally `and <property> le|lt <DateTimeOffset>` (the audit log's window).
   */
  rangeFilterable?: readonly string[];
  /**
   * The properties of the entity type per version, which `$select` may name (entity-properties.ts).
   * A resource without a declared list takes any `$select` unchecked.
   */
  properties?: DeclaredProperties;
}

export interface V1Omissions {
  /** Records of these types (`@odata.type` without the namespace) are not in the `/v1.0` collection. */
  types?: ReadonlySet<string>;
  /** Properties `/v1.0` does not return. */
  properties?: readonly string[];
  /** Per property, enum members `/v1.0` sends as `unknownFutureValue` whatever the request prefers. */
  enumMembers?: Readonly<Record<string, readonly string[]>>;
  /** Properties `/v1.0` does not return inside a record, by path (`assignments[].target.x`, `[]` for each item of an array). */
  nested?: readonly string[];
}

/**
 * `operationApprovalPolicyType` members after `unknownFutureValue` (intune-rbac-operationapprovalpolicytype,
 * beta: values 22 to 31). The device actions (`deviceWipe` 2, `deviceRetire` 3, `deviceDelete` 5) and
 * the legacy plural spellings come before it and are always sent as they are.
 */
const LATE_APPROVAL_POLICY_TYPES = [
  'operationApprovalPolicy',
  'autopilot',
  'windows365',
  'deviceEnrollment',
  'deviceUpdate',
  'enrollmentRestriction',
  'tenantConfiguration',
  'tunnel',
  'endpointPrivilegeManagement',
  'deviceSecurityAction',
];

const BOTH: readonly VersionSegment[] = ['v1.0', 'beta'];
const BETA: readonly VersionSegment[] = ['beta'];

const CONFIGURATION = ['DeviceManagementConfiguration.Read.All', 'DeviceManagementConfiguration.ReadWrite.All'];
const SERVICE_CONFIG = ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementServiceConfig.ReadWrite.All'];
const MANAGED_DEVICES = ['DeviceManagementManagedDevices.Read.All', 'DeviceManagementManagedDevices.ReadWrite.All'];
const RBAC = ['DeviceManagementRBAC.Read.All', 'DeviceManagementRBAC.ReadWrite.All'];

/**
 * Settings catalog policies page at 25 (`"@odata.count": 25` and a nextLink on the first page, as
 * admins report in ugurkocde/IntuneAssignmentChecker#28 and ThomasKur/M365Documentation#45; the
 * policy's `/settings` pages at 25 too, jseerden/IntuneBackupAndRestore#88), and with `settings`
 * expanded at one or two policies a page. No documentation says `$top` raises either, so `$top` is
 * accepted (scripts send `$top=999`) but never makes a page larger: the strict case.
 */
const CONFIGURATION_POLICY_PAGING = { defaultPageSize: 25, maxPageSize: 25, expandedPageSize: { settings: 2 } } as const;

/**
 * Each resource with the permissions Microsoft's current Graph pages list for its application
 * caller (research notes: graph-contract.md, section 1). Resources documented on beta only are
 * absent from `/v1.0`, which answers 400 for the segment as the real service does.
 */
export const SIM_RESOURCES: readonly SimResource[] = [
  {
    kind: 'collection',
    path: '/deviceManagement/ndesConnectors',
    source: 'ndesConnectors',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/ndesConnectors',
    navigation: [],
    defaultPageSize: 1000,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/mobileThreatDefenseConnectors',
    source: 'mobileThreatDefenseConnectors',
    versions: BOTH,
    permissions: SERVICE_CONFIG,
    workload: 'intune',
    entitySet: 'deviceManagement/mobileThreatDefenseConnectors',
    navigation: [],
    defaultPageSize: 1000,
    v1Omits: { enumMembers: { partnerState: BETA_ONLY_MTD_PARTNER_STATES } },
  },
  {
    kind: 'singleton',
    path: '/deviceManagement/androidManagedStoreAccountEnterpriseSettings',
    source: 'androidManagedStoreAccountEnterpriseSettings',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/androidManagedStoreAccountEnterpriseSettings',
    navigation: [],
    defaultPageSize: 1,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/deviceManagementPartners',
    source: 'deviceManagementPartners',
    versions: BOTH,
    permissions: [...SERVICE_CONFIG, ...CONFIGURATION],
    workload: 'intune',
    entitySet: 'deviceManagement/deviceManagementPartners',
    navigation: [],
    defaultPageSize: 1000,
  },
  {
    kind: 'singleton',
    path: '/deviceManagement/windowsAutopilotSettings',
    source: 'windowsAutopilotSettings',
    versions: BETA,
    permissions: SERVICE_CONFIG,
    workload: 'intune',
    entitySet: 'deviceManagement/windowsAutopilotSettings',
    navigation: [],
    defaultPageSize: 1,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/deviceConfigurations',
    source: 'deviceConfigurations',
    versions: BOTH,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/deviceConfigurations',
    navigation: ['assignments'],
    defaultPageSize: 100,
    v1Omits: { types: new Set(BETA_ONLY_DEVICE_CONFIGURATION_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES },
    properties: entity.DEVICE_CONFIGURATION,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/deviceCompliancePolicies',
    source: 'deviceCompliancePolicies',
    versions: BOTH,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/deviceCompliancePolicies',
    navigation: ['assignments'],
    defaultPageSize: 100,
    v1Omits: { types: new Set(BETA_ONLY_COMPLIANCE_POLICY_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES },
    properties: entity.DEVICE_COMPLIANCE_POLICY,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/configurationPolicies',
    source: 'configurationPolicies',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/configurationPolicies',
    navigation: ['assignments', 'settings'],
    ...CONFIGURATION_POLICY_PAGING,
    // Graph documents no limit on `$expand=settings`; the strict case is that an expansion holds
    // no more than one page of `/settings` (25) and points on to the rest, so a policy with more
    // settings is read whole only by a client that follows `settings@odata.nextLink`.
    expandedItemCap: { settings: 25 },
    properties: entity.CONFIGURATION_POLICY,
  },
  {
    kind: 'collection',
    path: '/deviceAppManagement/mobileApps',
    source: 'mobileApps',
    versions: BOTH,
    permissions: ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All'],
    workload: 'intune',
    entitySet: 'deviceAppManagement/mobileApps',
    navigation: ['assignments'],
    defaultPageSize: 100,
    v1Omits: { types: new Set(BETA_ONLY_MOBILE_APP_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES },
    properties: entity.MOBILE_APP,
  },
  /**
   * Win32 dependencies and supersedence, tenant-wide (intune-apps-mobileapprelationship-list,
   * ?view=graph-rest-beta and ?view=graph-rest-1.0: DeviceManagementApps.* or
   * DeviceManagementConfiguration.*). Both segments answer; `/v1.0` declares no subtype, so it leaves
   * every typed record out (v1-schema.ts).
   */
  {
    kind: 'collection',
    path: '/deviceAppManagement/mobileAppRelationships',
    source: 'mobileAppRelationships',
    versions: BOTH,
    permissions: ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All', ...CONFIGURATION],
    workload: 'intune',
    entitySet: 'deviceAppManagement/mobileAppRelationships',
    navigation: [],
    defaultPageSize: 100,
    v1Omits: { types: new Set(BETA_ONLY_MOBILE_APP_RELATIONSHIP_TYPES) },
    properties: entity.MOBILE_APP_RELATIONSHIP,
  },
  /**
   * Assignment filters: beta only, as v1.0 `deviceManagement` has no `assignmentFilters`
   * (intune-policyset-deviceandappmanagementassignmentfilter-list, ?view=graph-rest-beta:
   * DeviceManagementConfiguration.*). `platform` (`devicePlatformType`) has
   * `windowsMobileApplicationManagement` after `unknownFutureValue`
   * (resources/intune-policyset-deviceandappmanagementassignmentfilter, ?view=graph-rest-beta).
   */
  {
    kind: 'collection',
    path: '/deviceManagement/assignmentFilters',
    source: 'assignmentFilters',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/assignmentFilters',
    navigation: [],
    defaultPageSize: 100,
    evolvableEnums: { platform: ['windowsMobileApplicationManagement'] },
    properties: entity.ASSIGNMENT_FILTER,
  },
  // The current pages list DeviceManagementScripts.* for both script collections (docs/finding-rules.md, report 2).
  {
    kind: 'collection',
    path: '/deviceManagement/deviceManagementScripts',
    source: 'deviceManagementScripts',
    versions: BETA,
    permissions: ['DeviceManagementScripts.Read.All', 'DeviceManagementScripts.ReadWrite.All'],
    workload: 'intune',
    entitySet: 'deviceManagement/deviceManagementScripts',
    navigation: ['assignments'],
    defaultPageSize: 100,
    properties: entity.DEVICE_MANAGEMENT_SCRIPT,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/deviceHealthScripts',
    source: 'deviceHealthScripts',
    versions: BETA,
    permissions: ['DeviceManagementScripts.Read.All', 'DeviceManagementScripts.ReadWrite.All'],
    workload: 'intune',
    entitySet: 'deviceManagement/deviceHealthScripts',
    navigation: ['assignments'],
    defaultPageSize: 100,
    properties: entity.DEVICE_HEALTH_SCRIPT,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/intents',
    source: 'intents',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/intents',
    navigation: ['assignments', 'settings'],
    defaultPageSize: 100,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/templates',
    source: 'templates',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/templates',
    navigation: [],
    defaultPageSize: 100,
  },
  {
    kind: 'collection',
    path: '/directory/deviceLocalCredentials',
    source: 'deviceLocalCredentials',
    versions: BOTH,
    permissions: ['DeviceLocalCredential.ReadBasic.All', 'DeviceLocalCredential.Read.All'],
    workload: 'directory',
    entitySet: 'directory/deviceLocalCredentials',
    navigation: [],
    defaultPageSize: 1000,
    requiresUserAgent: true,
    properties: entity.DEVICE_LOCAL_CREDENTIAL_INFO,
  },
  {
    kind: 'collection',
    path: '/informationProtection/bitlocker/recoveryKeys',
    source: 'bitlockerRecoveryKeys',
    versions: BOTH,
    permissions: ['BitlockerKey.ReadBasic.All', 'BitlockerKey.Read.All'],
    workload: 'directory',
    entitySet: 'informationProtection/bitlocker/recoveryKeys',
    navigation: [],
    defaultPageSize: 1000,
    requiresUserAgent: true,
    rejectsTop: true,
    properties: entity.BITLOCKER_RECOVERY_KEY,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/managedDevices',
    source: 'managedDevices',
    versions: BOTH,
    permissions: MANAGED_DEVICES,
    workload: 'intune-devices',
    entitySet: 'deviceManagement/managedDevices',
    navigation: [],
    defaultPageSize: 1000,
    v1Omits: { properties: BETA_ONLY_MANAGED_DEVICE_PROPERTIES },
    properties: entity.MANAGED_DEVICE,
    // Graph answers `operatingSystem eq '…'` on both versions (microsoft-graph-explorer-v4#3125: "Filter works
    // correctly for other properties, such as operatingSystem", v1.0 and beta). How it compares case is not
    // documented; the look-alike matches exactly, as OData's `eq` does (`tolower` exists for the other case),
    // so a device whose `operatingSystem` is spelt otherwise is not in the filtered list: the strict case.
    filterable: ['operatingSystem'],
  },
  {
    kind: 'collection',
    path: '/deviceManagement/operationApprovalPolicies',
    source: 'operationApprovalPolicies',
    versions: BETA,
    permissions: [...RBAC, ...CONFIGURATION],
    workload: 'intune',
    entitySet: 'deviceManagement/operationApprovalPolicies',
    navigation: [],
    defaultPageSize: 100,
    evolvableEnums: { policyType: LATE_APPROVAL_POLICY_TYPES, 'policySet.policyType': LATE_APPROVAL_POLICY_TYPES },
    properties: entity.OPERATION_APPROVAL_POLICY,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/operationApprovalRequests',
    source: 'operationApprovalRequests',
    versions: BETA,
    permissions: [...RBAC, ...CONFIGURATION],
    workload: 'intune',
    entitySet: 'deviceManagement/operationApprovalRequests',
    navigation: [],
    defaultPageSize: 100,
    evolvableEnums: { requiredOperationApprovalPolicyTypes: LATE_APPROVAL_POLICY_TYPES },
    properties: entity.OPERATION_APPROVAL_REQUEST,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/userExperienceAnalyticsDevicePerformance',
    source: 'userExperienceAnalyticsDevicePerformance',
    versions: BOTH,
    permissions: MANAGED_DEVICES,
    workload: 'intune-devices',
    entitySet: 'deviceManagement/userExperienceAnalyticsDevicePerformance',
    navigation: [],
    defaultPageSize: 1000,
    properties: entity.DEVICE_PERFORMANCE,
  },
  {
    kind: 'collection',
    path: '/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
    source: 'userExperienceAnalyticsAppHealthApplicationPerformance',
    versions: BOTH,
    permissions: MANAGED_DEVICES,
    workload: 'intune-devices',
    entitySet: 'deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
    navigation: [],
    defaultPageSize: 1000,
    properties: entity.APP_HEALTH_APPLICATION_PERFORMANCE,
  },
  /**
   * The settings catalog's templates (deviceManagementConfigurationPolicyTemplate, beta only;
   * learn.microsoft.com/graph/api/intune-deviceconfigv2-devicemanagementconfigurationpolicytemplate-list,
   * DeviceManagementConfiguration.Read.All). Graph documents no `$filter` on the list, but the admin
   * center and community tools filter it on `templateFamily` and `lifecycleState`; only the first is
   * accepted here. The page size is not documented: small pages, so a client that stops at the first
   * misses templates.
   */
  {
    kind: 'collection',
    path: '/deviceManagement/configurationPolicyTemplates',
    source: 'configurationPolicyTemplates',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/configurationPolicyTemplates',
    navigation: ['settingTemplates'],
    defaultPageSize: 10,
    filterable: ['templateFamily'],
  },
  /**
   * The Apple MDM push certificate, a singleton on both segments. Application permissions from
   * Microsoft's permission map (microsoftgraph/microsoft-graph-devx-content, permissions.json) and
   * the beta GET page (learn.microsoft.com/graph/api/intune-devices-applepushnotificationcertificate-get?view=graph-rest-beta):
   * DeviceManagementServiceConfig.ReadWrite.All, DeviceManagementConfiguration.Read(Write).All or
   * DeviceManagementManagedDevices.Read.All; DeviceManagementServiceConfig.Read.All is not among
   * them. A tenant that never uploaded one answers 404 (absent singleton; admins report
   * `ResourceNotFound`, ThomasKur/IntuneDocumentation#39).
   */
  {
    kind: 'singleton',
    path: '/deviceManagement/applePushNotificationCertificate',
    source: 'applePushNotificationCertificate',
    versions: BOTH,
    permissions: ['DeviceManagementServiceConfig.ReadWrite.All', ...CONFIGURATION, 'DeviceManagementManagedDevices.Read.All'],
    workload: 'intune',
    entitySet: 'deviceManagement/applePushNotificationCertificate',
    navigation: [],
    defaultPageSize: 1,
  },
  /**
   * ADE (DEP) tokens: beta only, as v1.0 `deviceManagement` has no `depOnboardingSettings`
   * (intune-enrollment-deponboardingsetting-list?view=graph-rest-beta; DeviceManagementServiceConfig.*
   * in the permission map). A tenant without Apple enrolment has an empty list.
   */
  {
    kind: 'collection',
    path: '/deviceManagement/depOnboardingSettings',
    source: 'depOnboardingSettings',
    versions: BETA,
    permissions: SERVICE_CONFIG,
    workload: 'intune',
    entitySet: 'deviceManagement/depOnboardingSettings',
    navigation: ['defaultIosEnrollmentProfile', 'defaultMacOsEnrollmentProfile', 'enrollmentProfiles', 'importedAppleDeviceIdentities'],
    defaultPageSize: 100,
  },
  /**
   * VPP (Apps and Books) tokens on both segments (intune-onboarding-vpptoken-list). The permission
   * map lists DeviceManagementServiceConfig.* and DeviceManagementConfiguration.*; the Learn page
   * lists DeviceManagementApps.* instead of the latter. The look-alike takes the map's. `token`,
   * the Apple token itself, comes back unless `$select` leaves it out.
   */
  {
    kind: 'collection',
    path: '/deviceAppManagement/vppTokens',
    source: 'vppTokens',
    versions: BOTH,
    permissions: [...SERVICE_CONFIG, ...CONFIGURATION],
    workload: 'intune',
    entitySet: 'deviceAppManagement/vppTokens',
    navigation: [],
    defaultPageSize: 100,
    v1Omits: { properties: BETA_ONLY_VPP_TOKEN_PROPERTIES },
  },
  /**
   * Intune Connectors for Active Directory: beta only
   * (intune-odj-devicemanagementdomainjoinconnector-list?view=graph-rest-beta:
   * DeviceManagementConfiguration.*). A tenant without hybrid join has none.
   */
  {
    kind: 'collection',
    path: '/deviceManagement/domainJoinConnectors',
    source: 'domainJoinConnectors',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: 'deviceManagement/domainJoinConnectors',
    navigation: [],
    defaultPageSize: 100,
  },
  /**
   * Intune's audit log (intune-auditing-auditevent-list, ?view=graph-rest-1.0 and
   * ?view=graph-rest-beta): on both segments, read with DeviceManagementApps.* only (not the
   * configuration permissions, though it logs configuration changes), up to one year of events
   * (learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs). The List page
   * promises no order, so events are served as they were written into the tenant, not by time;
   * the one `$filter` answered is a range on `activityDateTime`, as the admin center's audit view
   * asks it. Graph documents no page size: 50 keeps a demo's log on more than one page.
   */
  {
    kind: 'collection',
    path: '/deviceManagement/auditEvents',
    source: 'auditEvents',
    versions: BOTH,
    permissions: ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All'],
    workload: 'intune',
    entitySet: 'deviceManagement/auditEvents',
    navigation: [],
    defaultPageSize: 50,
    rangeFilterable: ['activityDateTime'],
  },
];

/**
 * Navigation collections served on their own path: a settings catalog policy's `/settings`
 * (intune-deviceconfigv2-devicemanagementconfigurationsetting-list, beta). It pages at 25 whatever
 * `$top` asks, as admins report (jseerden/IntuneBackupAndRestore#88: "saved only 25 settings"
 * without the nextLink; Microsoft365DSC/Microsoft365DSC#5921).
 */
export const SIM_NESTED_RESOURCES: readonly SimNestedResource[] = [
  {
    kind: 'nested',
    path: '/deviceManagement/configurationPolicies/{id}/settings',
    source: 'configurationPolicies',
    property: 'settings',
    versions: BETA,
    permissions: CONFIGURATION,
    workload: 'intune',
    entitySet: "deviceManagement/configurationPolicies('{id}')/settings",
    navigation: ['settingDefinitions'],
    defaultPageSize: 25,
    maxPageSize: 25,
  },
  // One object's assignments, with the filter fields the beta schema declares on their targets:
  // learn.microsoft.com/graph/api/intune-deviceconfig-deviceconfigurationassignment-list?view=graph-rest-beta and
  // …/intune-deviceconfig-devicecompliancepolicyassignment-list?view=graph-rest-beta (DeviceManagementConfiguration.*),
  // …/intune-apps-mobileappassignment-list?view=graph-rest-beta (DeviceManagementApps.*). Same permissions and
  // workload as the lists; a parent of a type beta does not declare is a 404. Graph documents no page size: the list's.
  ...(
    [
      ['/deviceManagement/deviceConfigurations', 'deviceConfigurations', CONFIGURATION, entity.DEVICE_CONFIGURATION_ASSIGNMENT],
      ['/deviceManagement/deviceCompliancePolicies', 'deviceCompliancePolicies', CONFIGURATION, entity.DEVICE_COMPLIANCE_POLICY_ASSIGNMENT],
      ['/deviceAppManagement/mobileApps', 'mobileApps', ['DeviceManagementApps.Read.All', 'DeviceManagementApps.ReadWrite.All'], entity.MOBILE_APP_ASSIGNMENT],
    ] as const
  ).map(([parent, source, permissions, properties]): SimNestedResource => ({
    kind: 'nested',
    path: `${parent}/{id}/assignments`,
    source,
    property: 'assignments',
    versions: BETA,
    permissions,
    workload: 'intune',
    entitySet: `${parent.slice(1)}('{id}')/assignments`,
    navigation: [],
    defaultPageSize: 100,
    properties,
  })),
];

/** The nested resource a path names, with the parent's id taken from it. */
export function findNestedResource(version: VersionSegment, path: string): { resource: SimNestedResource; parentId: string } | undefined {
  for (const resource of SIM_NESTED_RESOURCES) {
    if (!resource.versions.includes(version)) continue;
    const [before, after] = resource.path.split('{id}') as [string, string];
    if (!path.startsWith(before) || !path.endsWith(after)) continue;
    const parentId = path.slice(before.length, path.length - after.length);
    if (parentId && !parentId.includes('/')) return { resource, parentId: decodeURIComponent(parentId) };
  }
  return undefined;
}

/**
 * One record of a collection by its id, `<collection path>/{id}`: every Intune collection reads its
 * entities this way (the "Get" pages beside each "List" page of the Intune Graph reference, e.g.
 * intune-deviceconfigv2-devicemanagementconfigurationpolicy-get, `$expand=settings` inline).
 */
export function findEntity(version: VersionSegment, path: string): { resource: SimResource & { kind: 'collection' }; id: string } | undefined {
  const slash = path.lastIndexOf('/');
  const resource = findResource(version, path.slice(0, slash));
  const id = path.slice(slash + 1);
  if (!resource || resource.kind !== 'collection' || !id) return undefined;
  return { resource, id: decodeURIComponent(id) };
}

/** `GET /groups/{id}`: any of these lets an app read a group and its members. */
export const GROUP_READ_PERMISSIONS = ['GroupMember.Read.All', 'Group.Read.All', 'Directory.Read.All', 'Group.ReadWrite.All', 'Directory.ReadWrite.All'];

/**
 * `GET /directory/deletedItems/{id}` for a group: the get page's application permissions
 * (learn.microsoft.com/graph/api/directory-deleteditems-get). GroupMember.Read.All is not among them.
 */
export const DELETED_ITEM_READ_PERMISSIONS = ['Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

export function findResource(version: VersionSegment, path: string): SimResource | undefined {
  return SIM_RESOURCES.find((resource) => resource.path === path && resource.versions.includes(version));
}

/**
 * Whether a token's roles grant one of `permissions`, compared exactly: a role is the app role's
 * value as Entra defines it ("roles" in the access token claims reference, Microsoft identity
 * platform docs), so `BitLockerKey.ReadBasic.All` grants nothing where `BitlockerKey.ReadBasic.All`
 * is the permission, as an app asking for the misspelt name would find on a real tenant.
 */
export function hasAnyRole(roles: readonly string[], permissions: readonly string[]): boolean {
  const granted = new Set(roles);
  return permissions.some((permission) => granted.has(permission));
}
