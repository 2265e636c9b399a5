/**
 * Report 1's Graph reads: the certificate connectors, Mobile Threat Defense connectors and partner
 * integrations, the managed Google Play and Autopilot singletons; and beside the specification the
 * Apple MDM push certificate, ADE and VPP tokens and the Intune Connectors for Active Directory
 * (docs/finding-rules.md, report 1). Each `$select` is the fields `derive` reads; permissions are
 * those of each call's Graph page that the product holds.
 */

import type { UpstreamRead } from '../../graph/upstream-read.js';

/** List ndesConnectors, beta only (intune-deviceconfig-ndesconnector-list?view=graph-rest-beta): DeviceManagementConfiguration.Read.All. */
export const NDES_READ = {
  path: '/beta/deviceManagement/ndesConnectors',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-deviceconfig-ndesconnector-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'machineName', 'state', 'lastConnectionDateTime', 'connectorVersion'],
  optional: false,
  why: "The certificate connectors' state, last connection and version.",
} as const satisfies UpstreamRead;

/** List mobileThreatDefenseConnectors (intune-onboarding-mobilethreatdefenseconnector-list): DeviceManagementServiceConfig.Read.All. */
export const MTD_READ = {
  path: '/v1.0/deviceManagement/mobileThreatDefenseConnectors',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-onboarding-mobilethreatdefenseconnector-list',
  permissions: ['DeviceManagementServiceConfig.Read.All'],
  select: ['id', 'partnerState', 'lastHeartbeatDateTime', 'partnerUnresponsivenessThresholdInDays'],
  optional: false,
  why: "Each Mobile Threat Defense partner's state and last heartbeat.",
} as const satisfies UpstreamRead;

/**
 * The same list on beta, read again only when `/v1.0` sends a state as `unknownFutureValue` (beta's
 * `notSetUp` and `error`; load.ts, `loadMobileThreatDefenseConnectors`). A failure leaves the state unnamed.
 */
export const MTD_BETA_READ = {
  ...MTD_READ,
  path: '/beta/deviceManagement/mobileThreatDefenseConnectors',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-onboarding-mobilethreatdefenseconnector-list?view=graph-rest-beta',
  optional: true,
  why: 'The states `/v1.0` hides as unknownFutureValue.',
} as const satisfies UpstreamRead;

/** List deviceManagementPartners (intune-onboarding-devicemanagementpartner-list): DeviceManagementServiceConfig.Read.All or DeviceManagementConfiguration.Read.All. */
export const PARTNERS_READ = {
  path: '/v1.0/deviceManagement/deviceManagementPartners',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-onboarding-devicemanagementpartner-list',
  permissions: ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: [
    'id',
    'displayName',
    'isConfigured',
    'partnerState',
    'lastHeartbeatDateTime',
    'whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime',
    'whenPartnerDevicesWillBeRemovedDateTime',
  ],
  optional: false,
  why: 'Partner device management integrations: configured, their state and heartbeat.',
} as const satisfies UpstreamRead;

/**
 * The managed Google Play settings, read on beta, where Graph declares them
 * (intune-androidforwork-androidmanagedstoreaccountenterprisesettings-get?view=graph-rest-beta:
 * DeviceManagementConfiguration.Read.All). The specification names the `/v1.0` path, but the v1.0
 * metadata declares neither the type nor the `deviceManagement` property (microsoftgraph/msgraph-metadata,
 * `schemas/v1.0-Prod.csdl` and `schemas/type-mappings/v1.0-entity-types.json`; the beta entity types
 * list it), and Graph answers 400 "Resource not found for the segment" there: asking v1.0 first cost
 * a 400 on every load (docs/finding-rules.md, report 1). The singleton also carries the tenant's enrolment tokens
 * and their QR codes (`companyCodes[].enrollmentToken`, `qrCodeContent`, `qrCodeImage`): anyone
 * holding one can enrol a device. `$select` keeps them off the wire, and the load's projection keeps
 * nothing else should Graph send them anyway.
 */
export const MANAGED_STORE_READ = {
  path: '/beta/deviceManagement/androidManagedStoreAccountEnterpriseSettings',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-androidforwork-androidmanagedstoreaccountenterprisesettings-get?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'bindStatus', 'lastAppSyncStatus', 'lastAppSyncDateTime', 'ownerOrganizationName'],
  optional: false,
  why: "Whether managed Google Play is bound, and its last app sync's status and time.",
} as const satisfies UpstreamRead;

/** The Autopilot settings, beta only (intune-enrollment-windowsautopilotsettings-get?view=graph-rest-beta): DeviceManagementServiceConfig.Read.All. */
export const AUTOPILOT_READ = {
  path: '/beta/deviceManagement/windowsAutopilotSettings',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-enrollment-windowsautopilotsettings-get?view=graph-rest-beta',
  permissions: ['DeviceManagementServiceConfig.Read.All'],
  select: ['id', 'syncStatus', 'lastSyncDateTime'],
  optional: false,
  why: "The Autopilot sync's status and last time.",
} as const satisfies UpstreamRead;

/**
 * The Apple MDM push certificate, a singleton on `/v1.0`
 * (learn.microsoft.com/graph/api/intune-devices-applepushnotificationcertificate-get lists, for an
 * application, DeviceManagementServiceConfig.ReadWrite.All and DeviceManagementManagedDevices.Read.All:
 * of the product's permissions only the second, which report 4 asks for anyway;
 * DeviceManagementServiceConfig.Read.All is not among them). Never `certificate`, the certificate itself.
 */
export const PUSH_CERTIFICATE_READ = {
  path: '/v1.0/deviceManagement/applePushNotificationCertificate',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-applepushnotificationcertificate-get',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: ['id', 'appleIdentifier', 'topicIdentifier', 'expirationDateTime', 'lastModifiedDateTime', 'certificateUploadStatus', 'certificateUploadFailureReason'],
  optional: true,
  why: "The Apple MDM push certificate's expiry, without which no Apple device checks in.",
} as const satisfies UpstreamRead;

/** ADE (DEP) tokens, beta only (intune-enrollment-deponboardingsetting-list?view=graph-rest-beta): DeviceManagementServiceConfig.Read.All. */
export const ADE_TOKENS_READ = {
  path: '/beta/deviceManagement/depOnboardingSettings',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-enrollment-deponboardingsetting-list?view=graph-rest-beta',
  permissions: ['DeviceManagementServiceConfig.Read.All'],
  select: ['id', 'tokenName', 'appleIdentifier', 'tokenType', 'tokenExpirationDateTime', 'lastSuccessfulSyncDateTime', 'lastSyncErrorCode', 'syncedDeviceCount'],
  optional: true,
  why: "Each Automated Device Enrollment token's expiry and last sync.",
} as const satisfies UpstreamRead;

/**
 * VPP (Apps and Books) tokens (intune-onboarding-vpptoken-list): DeviceManagementServiceConfig.Read.All
 * or DeviceManagementConfiguration.Read.All. `token` is the Apple VPP token itself, a secret, and
 * Graph returns it unless `$select` leaves it out (resources/intune-onboarding-vpptoken): the
 * allow-list refuses a read of this list without a `$select`, or one that names `token`.
 */
export const VPP_TOKENS_READ = {
  path: '/v1.0/deviceAppManagement/vppTokens',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-onboarding-vpptoken-list',
  permissions: ['DeviceManagementServiceConfig.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: ['id', 'organizationName', 'appleId', 'vppTokenAccountType', 'state', 'expirationDateTime', 'lastSyncDateTime', 'lastSyncStatus'],
  optional: true,
  secretFields: ['token'],
  secretUnlessSelected: true,
  why: "Each Apps and Books token's state, expiry and last sync.",
} as const satisfies UpstreamRead;

/** Intune Connectors for Active Directory, beta only (intune-odj-devicemanagementdomainjoinconnector-list?view=graph-rest-beta): DeviceManagementConfiguration.Read.All. */
export const AD_CONNECTORS_READ = {
  path: '/beta/deviceManagement/domainJoinConnectors',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-odj-devicemanagementdomainjoinconnector-list?view=graph-rest-beta',
  permissions: ['DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'state', 'version', 'lastConnectionDateTime'],
  optional: true,
  why: 'The connectors for hybrid join: their state, version and last connection.',
} as const satisfies UpstreamRead;

export const CONNECTOR_READS: readonly UpstreamRead[] = [
  NDES_READ,
  MTD_READ,
  MTD_BETA_READ,
  PARTNERS_READ,
  MANAGED_STORE_READ,
  AUTOPILOT_READ,
  PUSH_CERTIFICATE_READ,
  ADE_TOKENS_READ,
  VPP_TOKENS_READ,
  AD_CONNECTORS_READ,
];
