import { BETA_ONLY_MTD_PARTNER_STATES, BETA_ONLY_VPP_TOKEN_PROPERTIES } from '../v1-schema.js';
import { BETA, BOTH, CONFIGURATION_PERMISSIONS, SERVICE_CONFIG_PERMISSIONS } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/**
 * Intune's service configuration: the connectors, partners and tokens that tie the tenant to other
 * services (report 1, connector health). Each with the permissions Microsoft's current Graph pages
 * list for its application caller. Resources documented on beta only are absent from `/v1.0`, which
 * answers 400 for the segment as the real service does.
 */

export const NDES_CONNECTORS = {
  kind: 'collection',
  path: '/deviceManagement/ndesConnectors',
  source: 'ndesConnectors',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/ndesConnectors',
  navigation: [],
  defaultPageSize: 1000,
} as const satisfies SimResource;

export const MOBILE_THREAT_DEFENSE_CONNECTORS = {
  kind: 'collection',
  path: '/deviceManagement/mobileThreatDefenseConnectors',
  source: 'mobileThreatDefenseConnectors',
  versions: BOTH,
  permissions: SERVICE_CONFIG_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/mobileThreatDefenseConnectors',
  navigation: [],
  defaultPageSize: 1000,
  v1Omits: { enumMembers: { partnerState: BETA_ONLY_MTD_PARTNER_STATES } },
} as const satisfies SimResource;

/**
 * Managed Google Play, a singleton on beta only: the v1.0 metadata declares neither its type nor
 * `deviceManagement`'s property for it (microsoftgraph/msgraph-metadata, `schemas/v1.0-Prod.csdl`;
 * `schemas/type-mappings/beta-entity-types.json` lists it), so `/v1.0` answers 400 "Resource not found
 * for the segment", as for every path its metadata lacks (test/sim/graph-fidelity.test.ts). Permissions:
 * intune-androidforwork-androidmanagedstoreaccountenterprisesettings-get?view=graph-rest-beta.
 */
export const ANDROID_MANAGED_STORE_SETTINGS = {
  kind: 'singleton',
  path: '/deviceManagement/androidManagedStoreAccountEnterpriseSettings',
  source: 'androidManagedStoreAccountEnterpriseSettings',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/androidManagedStoreAccountEnterpriseSettings',
  navigation: [],
  defaultPageSize: 1,
} as const satisfies SimResource;

export const DEVICE_MANAGEMENT_PARTNERS = {
  kind: 'collection',
  path: '/deviceManagement/deviceManagementPartners',
  source: 'deviceManagementPartners',
  versions: BOTH,
  permissions: [...SERVICE_CONFIG_PERMISSIONS, ...CONFIGURATION_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceManagement/deviceManagementPartners',
  navigation: [],
  defaultPageSize: 1000,
} as const satisfies SimResource;

export const WINDOWS_AUTOPILOT_SETTINGS = {
  kind: 'singleton',
  path: '/deviceManagement/windowsAutopilotSettings',
  source: 'windowsAutopilotSettings',
  versions: BETA,
  permissions: SERVICE_CONFIG_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/windowsAutopilotSettings',
  navigation: [],
  defaultPageSize: 1,
} as const satisfies SimResource;

/**
 * The Apple MDM push certificate, a singleton on both segments. Application permissions as the v1.0
 * GET page lists them (learn.microsoft.com/graph/api/intune-devices-applepushnotificationcertificate-get):
 * DeviceManagementServiceConfig.ReadWrite.All or DeviceManagementManagedDevices.Read.All. The beta
 * page and Microsoft's permission map (microsoftgraph/microsoft-graph-devx-content, permissions.json)
 * add DeviceManagementConfiguration.Read(Write).All; the look-alike keeps to the narrower list, on
 * both segments, so a read that leaned on the wider one fails here first. DeviceManagementServiceConfig.Read.All
 * is on neither. A tenant that never uploaded one answers 404 (absent singleton; admins report
 * `ResourceNotFound`, ThomasKur/IntuneDocumentation#39).
 */
export const APPLE_PUSH_NOTIFICATION_CERTIFICATE = {
  kind: 'singleton',
  path: '/deviceManagement/applePushNotificationCertificate',
  source: 'applePushNotificationCertificate',
  versions: BOTH,
  permissions: ['DeviceManagementServiceConfig.ReadWrite.All', 'DeviceManagementManagedDevices.Read.All'],
  workload: 'intune',
  entitySet: 'deviceManagement/applePushNotificationCertificate',
  navigation: [],
  defaultPageSize: 1,
} as const satisfies SimResource;

/**
 * ADE (DEP) tokens: beta only, as v1.0 `deviceManagement` has no `depOnboardingSettings`
 * (intune-enrollment-deponboardingsetting-list?view=graph-rest-beta; DeviceManagementServiceConfig.*
 * in the permission map). A tenant without Apple enrolment has an empty list.
 */
export const DEP_ONBOARDING_SETTINGS = {
  kind: 'collection',
  path: '/deviceManagement/depOnboardingSettings',
  source: 'depOnboardingSettings',
  versions: BETA,
  permissions: SERVICE_CONFIG_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/depOnboardingSettings',
  navigation: ['defaultIosEnrollmentProfile', 'defaultMacOsEnrollmentProfile', 'enrollmentProfiles', 'importedAppleDeviceIdentities'],
  defaultPageSize: 100,
} as const satisfies SimResource;

/**
 * VPP (Apps and Books) tokens on both segments (intune-onboarding-vpptoken-list). The permission
 * map lists DeviceManagementServiceConfig.* and DeviceManagementConfiguration.*; the Learn page
 * lists DeviceManagementApps.* instead of the latter. The look-alike takes the map's. `token`,
 * the Apple token itself, comes back unless `$select` leaves it out.
 */
export const VPP_TOKENS = {
  kind: 'collection',
  path: '/deviceAppManagement/vppTokens',
  source: 'vppTokens',
  versions: BOTH,
  permissions: [...SERVICE_CONFIG_PERMISSIONS, ...CONFIGURATION_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceAppManagement/vppTokens',
  navigation: [],
  defaultPageSize: 100,
  v1Omits: { properties: BETA_ONLY_VPP_TOKEN_PROPERTIES },
} as const satisfies SimResource;

/**
 * Intune Connectors for Active Directory: beta only
 * (intune-odj-devicemanagementdomainjoinconnector-list?view=graph-rest-beta:
 * DeviceManagementConfiguration.*). A tenant without hybrid join has none.
 */
export const DOMAIN_JOIN_CONNECTORS = {
  kind: 'collection',
  path: '/deviceManagement/domainJoinConnectors',
  source: 'domainJoinConnectors',
  versions: BETA,
  permissions: CONFIGURATION_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/domainJoinConnectors',
  navigation: [],
  defaultPageSize: 100,
} as const satisfies SimResource;
