/** Report 1's records in the demo tenant, typed against the Graph type packages. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, daysAgo } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';

export function ndesConnector(value: {
  id: string;
  displayName: string;
  machineName: string;
  state: Beta.NdesConnectorState;
  lastConnectionDateTime: string;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.ndesConnector',
    id: value.id,
    displayName: value.displayName,
    machineName: value.machineName,
    state: value.state,
    lastConnectionDateTime: value.lastConnectionDateTime,
    enrolledDateTime: daysAgo(value.now, 400),
    connectorVersion: '6.2406.0.1001',
    roleScopeTagIds: ['0'],
  } satisfies Beta.NdesConnector & { '@odata.type': string });
}

export function mobileThreatDefenseConnector(value: {
  id: string;
  partnerState: Graph.MobileThreatPartnerTenantState | 'notSetUp' | 'error';
  lastHeartbeatDateTime: string;
  partnerUnresponsivenessThresholdInDays: number;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.mobileThreatDefenseConnector',
    id: value.id,
    lastHeartbeatDateTime: value.lastHeartbeatDateTime,
    partnerState: value.partnerState as Graph.MobileThreatPartnerTenantState,
    androidMobileApplicationManagementEnabled: false,
    iosMobileApplicationManagementEnabled: false,
    androidEnabled: true,
    iosEnabled: true,
    windowsEnabled: true,
    androidDeviceBlockedOnMissingPartnerData: false,
    iosDeviceBlockedOnMissingPartnerData: false,
    windowsDeviceBlockedOnMissingPartnerData: true,
    partnerUnsupportedOsVersionBlocked: false,
    partnerUnresponsivenessThresholdInDays: value.partnerUnresponsivenessThresholdInDays,
    allowPartnerToCollectIOSApplicationMetadata: false,
    allowPartnerToCollectIOSPersonalApplicationMetadata: false,
  } satisfies Graph.MobileThreatDefenseConnector & { '@odata.type': string });
}

export function deviceManagementPartner(value: {
  id: string;
  displayName: string;
  isConfigured: boolean;
  partnerState: Graph.DeviceManagementPartnerTenantState;
  lastHeartbeatDateTime: string;
  whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime?: string | null;
  whenPartnerDevicesWillBeRemovedDateTime?: string | null;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.deviceManagementPartner',
    id: value.id,
    displayName: value.displayName,
    isConfigured: value.isConfigured,
    partnerState: value.partnerState,
    partnerAppType: 'multiTenantApp',
    singleTenantAppId: null,
    lastHeartbeatDateTime: value.lastHeartbeatDateTime,
    whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: value.whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime ?? null,
    whenPartnerDevicesWillBeRemovedDateTime: value.whenPartnerDevicesWillBeRemovedDateTime ?? null,
  } satisfies Graph.DeviceManagementPartner & { '@odata.type': string });
}

/** A look-alike managed Google Play enrolment token (anyone holding a real one can enrol a device). */
export const MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN = 'DEMOENROLTOKEN7Q4X9VZK2M';

export function androidManagedStoreSettings(value: {
  id: string;
  bindStatus: Beta.AndroidManagedStoreAccountBindStatus;
  lastAppSyncStatus: Beta.AndroidManagedStoreAccountAppSyncStatus;
  lastAppSyncDateTime: string;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.androidManagedStoreAccountEnterpriseSettings',
    id: value.id,
    bindStatus: value.bindStatus,
    lastAppSyncDateTime: value.lastAppSyncDateTime,
    lastAppSyncStatus: value.lastAppSyncStatus,
    ownerUserPrincipalName: 'mdm-admin@contoso-demo.example',
    ownerOrganizationName: 'Contoso',
    lastModifiedDateTime: daysAgo(value.now, 120),
    enrollmentTarget: 'targetedAsEnrollmentRestrictions',
    targetGroupIds: [],
    deviceOwnerManagementEnabled: true,
    androidDeviceOwnerFullyManagedEnrollmentEnabled: true,
    // Enrolment tokens come back on every GET of this singleton unless `$select` leaves them out;
    // the demo carries one so tests can prove it never reaches a report, a card or a log.
    companyCodes: [
      {
        enrollmentToken: MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN,
        qrCodeContent: `{"android.app.extra.PROVISIONING_ADMIN_EXTRAS_BUNDLE":{"com.google.android.apps.work.clouddpc.EXTRA_ENROLLMENT_TOKEN":"${MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN}"}}`,
        qrCodeImage: { type: 'image/png', value: btoa(`qr:${MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN}`) },
      },
    ],
    managedGooglePlayInitialScopeTagIds: ['0'],
  } satisfies Beta.AndroidManagedStoreAccountEnterpriseSettings & { '@odata.type': string });
}

export function windowsAutopilotSettings(value: { lastSyncDateTime: string; syncStatus: Beta.WindowsAutopilotSyncStatus; now: Date }): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.windowsAutopilotSettings',
    id: 'fa0d6b2b-44d2-4e27-b9a3-1fce6d0c5a8e',
    lastSyncDateTime: value.lastSyncDateTime,
    lastManualSyncTriggerDateTime: daysAgo(value.now, 30),
    syncStatus: value.syncStatus,
  } satisfies Beta.WindowsAutopilotSettings & { '@odata.type': string });
}

/**
 * The Apple MDM push certificate (learn.microsoft.com/graph/api/resources/intune-devices-applepushnotificationcertificate).
 * `certificate` carries a look-alike, so tests can prove the report's `$select` keeps it off the wire.
 */
export const APPLE_PUSH_CERTIFICATE_LOOK_ALIKE = 'DEMOAPNSCERTIFICATE5T8W2QLM';

export function applePushNotificationCertificate(value: { id: string; appleIdentifier: string; expirationDateTime: string; now: Date }): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.applePushNotificationCertificate',
    id: value.id,
    appleIdentifier: value.appleIdentifier,
    topicIdentifier: 'com.apple.mgmt.External.6f1c4e2a-8b3d-4c5e-9a7f-2d1e0b9c8a76',
    lastModifiedDateTime: daysAgo(value.now, 335),
    expirationDateTime: value.expirationDateTime,
    certificateUploadStatus: null,
    certificateUploadFailureReason: null,
    certificateSerialNumber: '2F6C91A4D03B7E58',
    certificate: APPLE_PUSH_CERTIFICATE_LOOK_ALIKE,
  } satisfies Graph.ApplePushNotificationCertificate & { '@odata.type': string });
}

/** An Automated Device Enrollment token (beta only; learn.microsoft.com/graph/api/resources/intune-enrollment-deponboardingsetting?view=graph-rest-beta). */
export function depOnboardingSetting(value: {
  id: string;
  tokenName: string;
  tokenExpirationDateTime: string;
  lastSuccessfulSyncDateTime: string;
  lastSyncErrorCode?: number;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.depOnboardingSetting',
    id: value.id,
    appleIdentifier: 'apple-enrolment@contoso-demo.example',
    tokenName: value.tokenName,
    tokenType: 'dep',
    tokenExpirationDateTime: value.tokenExpirationDateTime,
    lastModifiedDateTime: daysAgo(value.now, 300),
    lastSuccessfulSyncDateTime: value.lastSuccessfulSyncDateTime,
    lastSyncTriggeredDateTime: value.lastSuccessfulSyncDateTime,
    lastSyncErrorCode: value.lastSyncErrorCode ?? 0,
    shareTokenWithSchoolDataSyncService: false,
    dataSharingConsentGranted: true,
    syncedDeviceCount: 48,
    roleScopeTagIds: ['0'],
  } satisfies Beta.DepOnboardingSetting & { '@odata.type': string });
}

/** A look-alike Apple VPP token (anyone holding a real one can spend the location's licences). */
export const VPP_TOKEN_LOOK_ALIKE = 'DEMOVPPTOKEN3K9R7XPB1Z';

/**
 * An Apple VPP (Apps and Books) token (learn.microsoft.com/graph/api/resources/intune-onboarding-vpptoken).
 * `state` may be beta's `duplicateLocationId`; `displayName` and `locationName` are beta's, and
 * `/v1.0` leaves them out (src/sim/v1-schema.ts).
 */
export function vppToken(value: {
  id: string;
  organizationName: string;
  locationName: string;
  state: Beta.VppTokenState;
  expirationDateTime: string;
  lastSyncDateTime: string;
  lastSyncStatus: Beta.VppTokenSyncStatus;
  now: Date;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.vppToken',
    id: value.id,
    organizationName: value.organizationName,
    displayName: `${value.organizationName} (${value.locationName})`,
    locationName: value.locationName,
    appleId: 'apps-and-books@contoso-demo.example',
    vppTokenAccountType: 'business',
    automaticallyUpdateApps: true,
    countryOrRegion: 'us',
    state: value.state,
    expirationDateTime: value.expirationDateTime,
    lastModifiedDateTime: daysAgo(value.now, 200),
    lastSyncDateTime: value.lastSyncDateTime,
    lastSyncStatus: value.lastSyncStatus,
    token: VPP_TOKEN_LOOK_ALIKE,
    roleScopeTagIds: ['0'],
  } satisfies Beta.VppToken & { '@odata.type': string });
}

/** An Intune Connector for Active Directory (beta only; learn.microsoft.com/graph/api/resources/intune-odj-devicemanagementdomainjoinconnector?view=graph-rest-beta). */
export function domainJoinConnector(value: {
  id: string;
  displayName: string;
  state: Beta.DeviceManagementDomainJoinConnectorState;
  version: string;
  lastConnectionDateTime: string;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.deviceManagementDomainJoinConnector',
    id: value.id,
    displayName: value.displayName,
    state: value.state,
    version: value.version,
    lastConnectionDateTime: value.lastConnectionDateTime,
  } satisfies Beta.DeviceManagementDomainJoinConnector & { '@odata.type': string });
}
