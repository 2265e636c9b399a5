import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { GraphRecord } from './sim-tenant.js';

/**
 * Typed builders for the records a seeded tenant holds. Each checks its literal against the Graph
 * type packages (`satisfies`), so a misspelt field fails to compile instead of silently differing
 * from what Microsoft Graph returns.
 */

export const ZERO_GUID = '00000000-0000-0000-0000-000000000000';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

export function hoursAgo(now: Date, hours: number): string {
  return new Date(now.getTime() - hours * HOUR_MS).toISOString();
}

export function daysFromNow(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

function record<T>(value: T & { id: string }): GraphRecord {
  return value as unknown as GraphRecord;
}

// ---- assignment targets -------------------------------------------------------------------

export type Target =
  | { kind: 'allUsers' }
  | { kind: 'allDevices' }
  | { kind: 'include'; groupId: string }
  | { kind: 'exclude'; groupId: string }
  | { kind: 'configMgrCollection'; collectionId: string };

export function assignmentTarget(target: Target): Graph.DeviceAndAppManagementAssignmentTarget {
  switch (target.kind) {
    case 'allUsers':
      return { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' } as Graph.AllLicensedUsersAssignmentTarget;
    case 'allDevices':
      return { '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget' } as Graph.AllDevicesAssignmentTarget;
    case 'include':
      return { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: target.groupId } as Graph.GroupAssignmentTarget;
    case 'exclude':
      return { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: target.groupId } as Graph.ExclusionGroupAssignmentTarget;
    case 'configMgrCollection':
      return {
        '@odata.type': '#microsoft.graph.configurationManagerCollectionAssignmentTarget',
        collectionId: target.collectionId,
      } as Graph.ConfigurationManagerCollectionAssignmentTarget;
  }
}

function assignments(ownerId: string, targets: readonly Target[]): Array<{ id: string; target: Graph.DeviceAndAppManagementAssignmentTarget }> {
  return targets.map((target, index) => ({ id: `${ownerId}_${index}`, target: assignmentTarget(target) }));
}

// ---- report 1: connectors -----------------------------------------------------------------

export function ndesConnector(value: {
  id: string;
  displayName: string;
  machineName: string;
  state: Beta.NdesConnectorState;
  lastConnectionDateTime: string;
  now: Date;
}): GraphRecord {
  return record({
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
}): GraphRecord {
  return record({
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
}): GraphRecord {
  return record({
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
}): GraphRecord {
  return record({
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
        qrCodeImage: { type: 'image/png', value: Buffer.from(`qr:${MANAGED_GOOGLE_PLAY_ENROLMENT_TOKEN}`).toString('base64') },
      },
    ],
    managedGooglePlayInitialScopeTagIds: ['0'],
  } satisfies Beta.AndroidManagedStoreAccountEnterpriseSettings & { '@odata.type': string });
}

export function windowsAutopilotSettings(value: { lastSyncDateTime: string; syncStatus: Beta.WindowsAutopilotSyncStatus; now: Date }): GraphRecord {
  return record({
    '@odata.type': '#microsoft.graph.windowsAutopilotSettings',
    id: 'fa0d6b2b-44d2-4e27-b9a3-1fce6d0c5a8e',
    lastSyncDateTime: value.lastSyncDateTime,
    lastManualSyncTriggerDateTime: daysAgo(value.now, 30),
    syncStatus: value.syncStatus,
  } satisfies Beta.WindowsAutopilotSettings & { '@odata.type': string });
}

// ---- report 2: assignable objects ---------------------------------------------------------

export function deviceConfiguration(value: { id: string; displayName: string; odataType?: string; targets: readonly Target[]; now: Date }): GraphRecord {
  return record({
    '@odata.type': value.odataType ?? '#microsoft.graph.windows10GeneralConfiguration',
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 300),
    lastModifiedDateTime: daysAgo(value.now, 20),
    version: 3,
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceConfiguration & { '@odata.type': string });
}

export function deviceCompliancePolicy(value: { id: string; displayName: string; odataType?: string; targets: readonly Target[]; now: Date }): GraphRecord {
  return record({
    '@odata.type': value.odataType ?? '#microsoft.graph.windows10CompliancePolicy',
    id: value.id,
    displayName: value.displayName,
    description: '',
    createdDateTime: daysAgo(value.now, 300),
    lastModifiedDateTime: daysAgo(value.now, 40),
    version: 2,
    assignments: assignments(value.id, value.targets),
  } satisfies Graph.DeviceCompliancePolicy & { '@odata.type': string });
}

export function mobileApp(value: {
  id: string;
  displayName: string;
  publisher: string;
  odataType?: string;
  /** Managed (app protection) apps only: `global` for Microsoft's catalogue apps, in every tenant. */
  appAvailability?: Graph.ManagedAppAvailability;
  targets: ReadonlyArray<Target & { intent?: Graph.InstallIntent }>;
  now: Date;
}): GraphRecord {
  return record({
    '@odata.type': value.odataType ?? '#microsoft.graph.win32LobApp',
    ...(value.appAvailability ? { appAvailability: value.appAvailability } : {}),
    id: value.id,
    displayName: value.displayName,
    publisher: value.publisher,
    description: '',
    createdDateTime: daysAgo(value.now, 200),
    lastModifiedDateTime: daysAgo(value.now, 10),
    isFeatured: false,
    publishingState: 'published',
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      intent: target.intent ?? 'required',
      target: assignmentTarget(target),
      settings: null,
    })),
  } satisfies Graph.MobileApp & { '@odata.type': string });
}

export function deviceManagementScript(value: { id: string; displayName: string; targets: readonly Target[]; now: Date }): GraphRecord {
  return record({
    id: value.id,
    displayName: value.displayName,
    description: '',
    fileName: `${value.displayName.replace(/\W+/g, '-').toLowerCase()}.ps1`,
    runAsAccount: 'system',
    enforceSignatureCheck: false,
    runAs32Bit: false,
    createdDateTime: daysAgo(value.now, 150),
    lastModifiedDateTime: daysAgo(value.now, 15),
    roleScopeTagIds: ['0'],
    assignments: assignments(value.id, value.targets),
  } satisfies Beta.DeviceManagementScript);
}

export function deviceHealthScript(value: { id: string; displayName: string; targets: readonly Target[]; now: Date; isGlobalScript?: boolean }): GraphRecord {
  return record({
    id: value.id,
    displayName: value.displayName,
    publisher: value.isGlobalScript ? 'Microsoft' : 'Contoso IT',
    version: '1.0',
    description: '',
    runAsAccount: 'system',
    enforceSignatureCheck: false,
    runAs32Bit: false,
    isGlobalScript: value.isGlobalScript ?? false,
    deviceHealthScriptType: 'deviceHealthScript',
    createdDateTime: daysAgo(value.now, 90),
    lastModifiedDateTime: daysAgo(value.now, 9),
    roleScopeTagIds: ['0'],
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      target: assignmentTarget(target) as Beta.DeviceAndAppManagementAssignmentTarget,
      runRemediationScript: true,
      runSchedule: {
        '@odata.type': '#microsoft.graph.deviceHealthScriptDailySchedule',
        interval: 1,
        useUtc: false,
        time: '09:00:00.0000000',
      } as Beta.DeviceHealthScriptRunSchedule,
    })),
  } satisfies Beta.DeviceHealthScript);
}

// ---- reports 2 and 3: settings catalog policies -------------------------------------------

export type SettingInstance = Beta.DeviceManagementConfigurationSettingInstance & Record<string, unknown>;

export function choiceSetting(settingDefinitionId: string, valueSuffix: string, children: SettingInstance[] = []): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
    settingDefinitionId,
    choiceSettingValue: { value: `${settingDefinitionId}_${valueSuffix}`, children },
  } as SettingInstance;
}

export const ASR_RULES_SETTING = 'device_vendor_msft_policy_config_defender_attacksurfacereductionrules';

/** The ASR rules group setting: one child choice per rule, valued `<rule setting>_<block|audit|warn|off>`. */
export function asrRulesSetting(rules: Record<string, 'block' | 'audit' | 'warn' | 'off'>): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
    settingDefinitionId: ASR_RULES_SETTING,
    groupSettingCollectionValue: [{ children: Object.entries(rules).map(([rule, mode]) => choiceSetting(`${ASR_RULES_SETTING}_${rule}`, mode)) }],
  } as SettingInstance;
}

export function configurationPolicy(value: {
  id: string;
  name: string;
  templateFamily: Beta.DeviceManagementConfigurationTemplateFamily;
  templateId?: string;
  templateDisplayName?: string;
  templateDisplayVersion?: string;
  technologies?: string;
  settings: SettingInstance[];
  targets: readonly Target[];
  now: Date;
}): GraphRecord {
  return record({
    id: value.id,
    name: value.name,
    description: '',
    platforms: 'windows10',
    technologies: (value.technologies ?? 'mdm') as Beta.DeviceManagementConfigurationTechnologies,
    createdDateTime: daysAgo(value.now, 250),
    lastModifiedDateTime: daysAgo(value.now, 12),
    settingCount: value.settings.length,
    isAssigned: value.targets.length > 0,
    roleScopeTagIds: ['0'],
    templateReference: {
      templateId: value.templateId ?? '',
      templateFamily: value.templateFamily,
      templateDisplayName: value.templateDisplayName ?? null,
      templateDisplayVersion: value.templateDisplayVersion ?? null,
    },
    settings: value.settings.map((settingInstance, index) => ({ id: String(index), settingInstance })),
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      source: 'direct' as const,
      sourceId: value.id,
      target: assignmentTarget(target) as Beta.DeviceAndAppManagementAssignmentTarget,
    })),
  } satisfies Beta.DeviceManagementConfigurationPolicy);
}

// ---- report 3: legacy intents and their templates -----------------------------------------

export function deviceManagementTemplate(value: {
  id: string;
  displayName: string;
  templateType: Beta.DeviceManagementTemplateType;
  templateSubtype?: Beta.DeviceManagementTemplateSubtype;
  versionInfo: string;
  publishedDateTime: string;
  isDeprecated: boolean;
}): GraphRecord {
  return record({
    '@odata.type': '#microsoft.graph.securityBaselineTemplate',
    id: value.id,
    displayName: value.displayName,
    description: '',
    versionInfo: value.versionInfo,
    isDeprecated: value.isDeprecated,
    intentCount: 1,
    templateType: value.templateType,
    platformType: 'windows10AndLater',
    templateSubtype: value.templateSubtype ?? 'none',
    publishedDateTime: value.publishedDateTime,
  } satisfies Beta.DeviceManagementTemplate & { '@odata.type': string });
}

export function deviceManagementIntent(value: { id: string; displayName: string; templateId: string; now: Date }): GraphRecord {
  return record({
    id: value.id,
    displayName: value.displayName,
    description: '',
    isAssigned: true,
    isMigratingToConfigurationPolicy: false,
    lastModifiedDateTime: daysAgo(value.now, 60),
    templateId: value.templateId,
    roleScopeTagIds: ['0'],
  } satisfies Beta.DeviceManagementIntent);
}

// ---- report 4: devices and escrow metadata ------------------------------------------------

export function managedDevice(value: {
  id: string;
  deviceName: string;
  operatingSystem: string;
  osVersion: string;
  azureADDeviceId: string | null;
  userPrincipalName: string;
  model: string;
  manufacturer: string;
  lastSyncDateTime: string;
  enrolledDateTime: string;
  /** Beta's `joinType`; `/v1.0` leaves it out (v1-schema.ts). Windows devices default to Entra joined. */
  joinType?: Beta.JoinType;
}): GraphRecord {
  return record({
    id: value.id,
    userId: null,
    deviceName: value.deviceName,
    managedDeviceOwnerType: 'company',
    enrolledDateTime: value.enrolledDateTime,
    lastSyncDateTime: value.lastSyncDateTime,
    operatingSystem: value.operatingSystem,
    complianceState: 'compliant',
    jailBroken: 'False',
    managementAgent: 'mdm',
    osVersion: value.osVersion,
    azureADRegistered: value.azureADDeviceId !== null && value.azureADDeviceId !== ZERO_GUID,
    deviceEnrollmentType: 'windowsAzureADJoin',
    emailAddress: value.userPrincipalName,
    azureADDeviceId: value.azureADDeviceId,
    deviceRegistrationState: 'registered',
    isSupervised: false,
    isEncrypted: true,
    userPrincipalName: value.userPrincipalName,
    model: value.model,
    manufacturer: value.manufacturer,
    serialNumber: value.id.slice(-10).toUpperCase(),
    userDisplayName: value.userPrincipalName.split('@')[0] ?? '',
    managedDeviceName: `${value.userPrincipalName.split('@')[0]}_${value.operatingSystem}`,
    joinType: value.joinType ?? (value.operatingSystem.toLowerCase() === 'windows' ? 'azureADJoined' : 'azureADRegistered'),
  } satisfies Graph.ManagedDevice & Pick<Beta.ManagedDevice, 'joinType'>);
}

export function deviceLocalCredentialInfo(value: { entraDeviceId: string; deviceName: string; lastBackupDateTime: string; refreshDateTime: string }): GraphRecord {
  // The list never returns `credentials`, whatever the permission; the simulator does not even hold them.
  return record({
    id: value.entraDeviceId,
    deviceName: value.deviceName,
    lastBackupDateTime: value.lastBackupDateTime,
    refreshDateTime: value.refreshDateTime,
  } satisfies Graph.DeviceLocalCredentialInfo);
}

export function bitlockerRecoveryKey(value: {
  id: string;
  entraDeviceId: string;
  createdDateTime: string;
  /** Graph's docs show both the member name and its number; both arrive in practice. */
  volumeType: Graph.VolumeType | 1 | 2 | 3;
}): GraphRecord {
  // `key` is returned only on a single GET with $select=key; the list carries metadata only.
  return record({
    id: value.id,
    createdDateTime: value.createdDateTime,
    deviceId: value.entraDeviceId,
    volumeType: value.volumeType as Graph.VolumeType,
  } satisfies Graph.BitlockerRecoveryKey);
}

// ---- report 5: multi admin approval -------------------------------------------------------

export function operationApprovalPolicy(value: {
  id: string;
  displayName: string;
  policyType: string;
  approverGroupIds: string[];
  now: Date;
  /** Device action policies (Intune 2508 on) say which action in `policySet`, their type being `deviceAction`. */
  policySet?: { policyType: string; policyPlatform?: string };
}): GraphRecord {
  return record({
    id: value.id,
    displayName: value.displayName,
    description: '',
    lastModifiedDateTime: daysAgo(value.now, 45),
    // The typed union is truncated; Graph documents about thirty members (docs/finding-rules.md, report 5).
    policyType: value.policyType as Beta.OperationApprovalPolicyType,
    policyPlatform: 'notApplicable',
    ...(value.policySet
      ? {
          policySet: {
            policyType: value.policySet.policyType as Beta.OperationApprovalPolicyType,
            policyPlatform: (value.policySet.policyPlatform ?? 'notApplicable') as Beta.OperationApprovalPolicyPlatform,
          },
        }
      : {}),
    approverGroupIds: value.approverGroupIds,
  } satisfies Beta.OperationApprovalPolicy & { policyType: Beta.OperationApprovalPolicyType });
}

export function operationApprovalRequest(value: {
  id: string;
  requestDateTime: string;
  status: Beta.OperationApprovalRequestStatus;
  requestor: string;
  approver: string | null;
  justification: string;
  policyTypes: string[];
  now: Date;
}): GraphRecord {
  const requested = new Date(value.requestDateTime);
  return record({
    id: value.id,
    requestDateTime: value.requestDateTime,
    expirationDateTime: new Date(requested.getTime() + 30 * DAY_MS).toISOString(),
    lastModifiedDateTime: value.requestDateTime,
    requestJustification: value.justification,
    approvalJustification: value.approver ? 'Checked with the requester.' : null,
    requestor: { user: { id: value.requestor, displayName: value.requestor.split('@')[0] ?? value.requestor } },
    approver: value.approver ? { user: { id: value.approver, displayName: value.approver.split('@')[0] ?? value.approver } } : null,
    status: value.status,
    requiredOperationApprovalPolicyTypes: value.policyTypes as Beta.OperationApprovalPolicyType[],
  } satisfies Beta.OperationApprovalRequest);
}

// ---- report 6: endpoint analytics ---------------------------------------------------------

export interface StartupTimes {
  coreBootTimeInMs: number;
  groupPolicyBootTimeInMs: number;
  coreLoginTimeInMs: number;
  groupPolicyLoginTimeInMs: number;
  responsiveDesktopTimeInMs: number;
}

export function devicePerformance(value: {
  id: string;
  deviceName: string;
  model: string;
  manufacturer: string;
  diskType: Graph.DiskType;
  times: StartupTimes;
  blueScreenCount: number;
  restartCount: number;
  startupPerformanceScore: number;
}): GraphRecord {
  return record({
    id: value.id,
    deviceName: value.deviceName,
    model: value.model,
    manufacturer: value.manufacturer,
    diskType: value.diskType,
    operatingSystemVersion: '10.0.22631.4460',
    ...value.times,
    bootScore: value.startupPerformanceScore,
    loginScore: value.startupPerformanceScore,
    startupPerformanceScore: value.startupPerformanceScore,
    modelStartupPerformanceScore: -1,
    healthStatus: value.startupPerformanceScore < 50 ? 'needsAttention' : 'meetingGoals',
    blueScreenCount: value.blueScreenCount,
    averageBlueScreens: value.blueScreenCount / 30,
    restartCount: value.restartCount,
    averageRestarts: value.restartCount / 30,
    deviceCount: 1,
  } satisfies Graph.UserExperienceAnalyticsDevicePerformance);
}

/** Endpoint analytics' "no failures" value for mean time to failure (Int32.MaxValue). */
export const NO_FAILURES_MTTF = 2147483647;

export function appHealthPerformance(value: {
  id: string;
  appName: string;
  appDisplayName: string;
  appPublisher: string;
  appCrashCount: number;
  appHangCount: number;
  activeDeviceCount: number;
  meanTimeToFailureInMinutes: number;
  appHealthScore: number;
}): GraphRecord {
  return record({
    id: value.id,
    appName: value.appName,
    appDisplayName: value.appDisplayName,
    appPublisher: value.appPublisher,
    appCrashCount: value.appCrashCount,
    appHangCount: value.appHangCount,
    activeDeviceCount: value.activeDeviceCount,
    appUsageDuration: value.activeDeviceCount * 600,
    meanTimeToFailureInMinutes: value.meanTimeToFailureInMinutes,
    appHealthScore: value.appHealthScore,
  } satisfies Graph.UserExperienceAnalyticsAppHealthApplicationPerformance);
}
