/**
 * The properties each served entity type has, per schema version: what `$select` may name. Graph
 * answers 400 for a `$select` naming a property its type does not have ("Parsing OData Select and
 * Expand failed: Could not find a property named 'usedLicenseCount' on type 'microsoft.graph.mobileApp'.",
 * microsoftgraph/microsoft-graph-docs#9988), including a property of a derived type named on a list
 * of its base type (msgraph-beta-sdk-dotnet#563: `displayVersion` on `mobileApps`), and, on `/v1.0`,
 * a property only the beta schema declares.
 *
 * Why declared lists, and why these: each list is every property (navigation ones too) of the type
 * as Microsoft's published metadata declares it, checked by the compiler against the
 * `@microsoft/microsoft-graph-types` (v1.0) and `-beta` packages generated from that metadata: a
 * list that misses a documented property or names one the type lacks does not compile. So the
 * look-alike never refuses a property Microsoft documents but the demo's record builders happen to
 * leave out, which a list taken from the stored records would; and it refuses what Graph refuses.
 * The lists are of the collection's declared (base) type, as Graph's `$select` parser reads them.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';

export interface DeclaredProperties {
  /** The entity type's name without the namespace, as Graph's error names it. */
  type: string;
  'v1.0'?: readonly string[];
  beta?: readonly string[];
}

type Missing<T, Listed> = Exclude<keyof T, Listed | '@odata.type'>;

/** The list as given, when it names every property of `T` and nothing else (a compile error otherwise). */
function propertiesOf<T>() {
  return <const Listed extends readonly (keyof T)[]>(
    list: Listed & ([Missing<T, Listed[number]>] extends [never] ? unknown : { missing: Missing<T, Listed[number]> }),
  ): readonly string[] => list as readonly string[];
}

/** One list for both versions, where the two schemas declare the same properties (checked against each, as `propertiesOf`). */
function propertiesOfBoth<V1, B>() {
  return <const Listed extends readonly (keyof V1 & keyof B)[]>(
    list: Listed &
      ([Missing<V1, Listed[number]>] extends [never] ? unknown : { missingOnV1: Missing<V1, Listed[number]> }) &
      ([Missing<B, Listed[number]>] extends [never] ? unknown : { missingOnBeta: Missing<B, Listed[number]> }),
  ): Pick<DeclaredProperties, 'v1.0' | 'beta'> => ({ 'v1.0': list as readonly string[], beta: list as readonly string[] });
}

export const MANAGED_DEVICE: DeclaredProperties = {
  type: 'managedDevice',
  'v1.0': propertiesOf<Graph.ManagedDevice>()([
    'activationLockBypassCode',
    'androidSecurityPatchLevel',
    'azureADDeviceId',
    'azureADRegistered',
    'complianceGracePeriodExpirationDateTime',
    'complianceState',
    'configurationManagerClientEnabledFeatures',
    'deviceActionResults',
    'deviceCategory',
    'deviceCategoryDisplayName',
    'deviceCompliancePolicyStates',
    'deviceConfigurationStates',
    'deviceEnrollmentType',
    'deviceHealthAttestationState',
    'deviceName',
    'deviceRegistrationState',
    'easActivated',
    'easActivationDateTime',
    'easDeviceId',
    'emailAddress',
    'enrolledDateTime',
    'enrollmentProfileName',
    'ethernetMacAddress',
    'exchangeAccessState',
    'exchangeAccessStateReason',
    'exchangeLastSuccessfulSyncDateTime',
    'freeStorageSpaceInBytes',
    'iccid',
    'id',
    'imei',
    'isEncrypted',
    'isSupervised',
    'jailBroken',
    'lastSyncDateTime',
    'logCollectionRequests',
    'managedDeviceName',
    'managedDeviceOwnerType',
    'managementAgent',
    'managementCertificateExpirationDate',
    'manufacturer',
    'meid',
    'model',
    'notes',
    'operatingSystem',
    'osVersion',
    'partnerReportedThreatState',
    'phoneNumber',
    'physicalMemoryInBytes',
    'remoteAssistanceSessionErrorDetails',
    'remoteAssistanceSessionUrl',
    'requireUserEnrollmentApproval',
    'serialNumber',
    'subscriberCarrier',
    'totalStorageSpaceInBytes',
    'udid',
    'userDisplayName',
    'userId',
    'userPrincipalName',
    'users',
    'wiFiMacAddress',
    'windowsProtectionState',
  ]),
  beta: propertiesOf<Beta.ManagedDevice>()([
    'aadRegistered',
    'activationLockBypassCode',
    'androidSecurityPatchLevel',
    'assignmentFilterEvaluationStatusDetails',
    'autopilotEnrolled',
    'azureADDeviceId',
    'azureADRegistered',
    'azureActiveDirectoryDeviceId',
    'bootstrapTokenEscrowed',
    'chassisType',
    'chromeOSDeviceInfo',
    'cloudPcRemoteActionResults',
    'complianceGracePeriodExpirationDateTime',
    'complianceState',
    'configurationManagerClientEnabledFeatures',
    'configurationManagerClientHealthState',
    'configurationManagerClientInformation',
    'detectedApps',
    'deviceActionResults',
    'deviceCategory',
    'deviceCategoryDisplayName',
    'deviceCompliancePolicyStates',
    'deviceConfigurationStates',
    'deviceEnrollmentType',
    'deviceFirmwareConfigurationInterfaceManaged',
    'deviceHealthAttestationState',
    'deviceHealthScriptStates',
    'deviceName',
    'deviceRegistrationState',
    'deviceType',
    'easActivated',
    'easActivationDateTime',
    'easDeviceId',
    'emailAddress',
    'enrolledByUserPrincipalName',
    'enrolledDateTime',
    'enrollmentProfileName',
    'ethernetMacAddress',
    'exchangeAccessState',
    'exchangeAccessStateReason',
    'exchangeLastSuccessfulSyncDateTime',
    'freeStorageSpaceInBytes',
    'hardwareInformation',
    'iccid',
    'id',
    'imei',
    'isEncrypted',
    'isSupervised',
    'jailBroken',
    'joinType',
    'lastSyncDateTime',
    'logCollectionRequests',
    'lostModeState',
    'managedDeviceMobileAppConfigurationStates',
    'managedDeviceName',
    'managedDeviceOwnerType',
    'managementAgent',
    'managementCertificateExpirationDate',
    'managementFeatures',
    'managementState',
    'manufacturer',
    'meid',
    'model',
    'notes',
    'operatingSystem',
    'osVersion',
    'ownerType',
    'partnerReportedThreatState',
    'phoneNumber',
    'physicalMemoryInBytes',
    'preferMdmOverGroupPolicyAppliedDateTime',
    'processorArchitecture',
    'remoteAssistanceSessionErrorDetails',
    'remoteAssistanceSessionUrl',
    'requireUserEnrollmentApproval',
    'retireAfterDateTime',
    'roleScopeTagIds',
    'securityBaselineStates',
    'securityPatchLevel',
    'serialNumber',
    'skuFamily',
    'skuNumber',
    'specificationVersion',
    'subscriberCarrier',
    'totalStorageSpaceInBytes',
    'udid',
    'userDisplayName',
    'userId',
    'userPrincipalName',
    'users',
    'usersLoggedOn',
    'wiFiMacAddress',
    'windowsActiveMalwareCount',
    'windowsProtectionState',
    'windowsRemediatedMalwareCount',
  ]),
};

export const DEVICE_LOCAL_CREDENTIAL_INFO: DeclaredProperties = {
  type: 'deviceLocalCredentialInfo',
  ...propertiesOfBoth<Graph.DeviceLocalCredentialInfo, Beta.DeviceLocalCredentialInfo>()(['credentials', 'deviceName', 'id', 'lastBackupDateTime', 'refreshDateTime']),
};

export const BITLOCKER_RECOVERY_KEY: DeclaredProperties = {
  type: 'bitlockerRecoveryKey',
  ...propertiesOfBoth<Graph.BitlockerRecoveryKey, Beta.BitlockerRecoveryKey>()(['createdDateTime', 'deviceId', 'id', 'key', 'volumeType']),
};

export const DEVICE_PERFORMANCE: DeclaredProperties = {
  type: 'userExperienceAnalyticsDevicePerformance',
  ...propertiesOfBoth<Graph.UserExperienceAnalyticsDevicePerformance, Beta.UserExperienceAnalyticsDevicePerformance>()([
    'averageBlueScreens',
    'averageRestarts',
    'blueScreenCount',
    'bootScore',
    'coreBootTimeInMs',
    'coreLoginTimeInMs',
    'deviceCount',
    'deviceName',
    'diskType',
    'groupPolicyBootTimeInMs',
    'groupPolicyLoginTimeInMs',
    'healthStatus',
    'id',
    'loginScore',
    'manufacturer',
    'model',
    'modelStartupPerformanceScore',
    'operatingSystemVersion',
    'responsiveDesktopTimeInMs',
    'restartCount',
    'startupPerformanceScore',
  ]),
};

export const APP_HEALTH_APPLICATION_PERFORMANCE: DeclaredProperties = {
  type: 'userExperienceAnalyticsAppHealthApplicationPerformance',
  ...propertiesOfBoth<Graph.UserExperienceAnalyticsAppHealthApplicationPerformance, Beta.UserExperienceAnalyticsAppHealthApplicationPerformance>()([
    'activeDeviceCount',
    'appCrashCount',
    'appDisplayName',
    'appHangCount',
    'appHealthScore',
    'appName',
    'appPublisher',
    'appUsageDuration',
    'id',
    'meanTimeToFailureInMinutes',
  ]),
};

export const OPERATION_APPROVAL_POLICY: DeclaredProperties = {
  type: 'operationApprovalPolicy',
  beta: propertiesOf<Beta.OperationApprovalPolicy>()(['approverGroupIds', 'description', 'displayName', 'id', 'lastModifiedDateTime', 'policyPlatform', 'policySet', 'policyType']),
};

export const OPERATION_APPROVAL_REQUEST: DeclaredProperties = {
  type: 'operationApprovalRequest',
  beta: propertiesOf<Beta.OperationApprovalRequest>()([
    'approvalJustification',
    'approver',
    'expirationDateTime',
    'id',
    'lastModifiedDateTime',
    'requestDateTime',
    'requestJustification',
    'requestor',
    'requiredOperationApprovalPolicyTypes',
    'status',
  ]),
};

export const DEVICE_CONFIGURATION: DeclaredProperties = {
  type: 'deviceConfiguration',
  'v1.0': propertiesOf<Graph.DeviceConfiguration>()([
    'assignments',
    'createdDateTime',
    'description',
    'deviceSettingStateSummaries',
    'deviceStatusOverview',
    'deviceStatuses',
    'displayName',
    'id',
    'lastModifiedDateTime',
    'userStatusOverview',
    'userStatuses',
    'version',
  ]),
  beta: propertiesOf<Beta.DeviceConfiguration>()([
    'assignments',
    'createdDateTime',
    'description',
    'deviceManagementApplicabilityRuleDeviceMode',
    'deviceManagementApplicabilityRuleOsEdition',
    'deviceManagementApplicabilityRuleOsVersion',
    'deviceSettingStateSummaries',
    'deviceStatusOverview',
    'deviceStatuses',
    'displayName',
    'groupAssignments',
    'id',
    'lastModifiedDateTime',
    'roleScopeTagIds',
    'supportsScopeTags',
    'userStatusOverview',
    'userStatuses',
    'version',
  ]),
};

export const DEVICE_COMPLIANCE_POLICY: DeclaredProperties = {
  type: 'deviceCompliancePolicy',
  'v1.0': propertiesOf<Graph.DeviceCompliancePolicy>()([
    'assignments',
    'createdDateTime',
    'description',
    'deviceSettingStateSummaries',
    'deviceStatusOverview',
    'deviceStatuses',
    'displayName',
    'id',
    'lastModifiedDateTime',
    'scheduledActionsForRule',
    'userStatusOverview',
    'userStatuses',
    'version',
  ]),
  beta: propertiesOf<Beta.DeviceCompliancePolicy>()([
    'assignments',
    'createdDateTime',
    'description',
    'deviceSettingStateSummaries',
    'deviceStatusOverview',
    'deviceStatuses',
    'displayName',
    'id',
    'lastModifiedDateTime',
    'roleScopeTagIds',
    'scheduledActionsForRule',
    'userStatusOverview',
    'userStatuses',
    'version',
  ]),
};

export const MOBILE_APP: DeclaredProperties = {
  type: 'mobileApp',
  'v1.0': propertiesOf<Graph.MobileApp>()([
    'assignments',
    'categories',
    'createdDateTime',
    'description',
    'developer',
    'displayName',
    'id',
    'informationUrl',
    'isFeatured',
    'largeIcon',
    'lastModifiedDateTime',
    'notes',
    'owner',
    'privacyInformationUrl',
    'publisher',
    'publishingState',
  ]),
  beta: propertiesOf<Beta.MobileApp>()([
    'assignments',
    'categories',
    'createdDateTime',
    'dependentAppCount',
    'description',
    'developer',
    'displayName',
    'id',
    'informationUrl',
    'isAssigned',
    'isFeatured',
    'largeIcon',
    'lastModifiedDateTime',
    'notes',
    'owner',
    'privacyInformationUrl',
    'publisher',
    'publishingState',
    'relationships',
    'roleScopeTagIds',
    'supersededAppCount',
    'supersedingAppCount',
    'uploadState',
  ]),
};

export const MOBILE_APP_RELATIONSHIP: DeclaredProperties = {
  type: 'mobileAppRelationship',
  'v1.0': propertiesOf<Graph.MobileAppRelationship>()([
    'id',
    'sourceDisplayName',
    'sourceDisplayVersion',
    'sourceId',
    'sourcePublisherDisplayName',
    'targetDisplayName',
    'targetDisplayVersion',
    'targetId',
    'targetPublisherDisplayName',
  ]),
  beta: propertiesOf<Beta.MobileAppRelationship>()([
    'id',
    'sourceDisplayName',
    'sourceDisplayVersion',
    'sourceId',
    'sourcePublisherDisplayName',
    'targetDisplayName',
    'targetDisplayVersion',
    'targetId',
    'targetPublisher',
    'targetPublisherDisplayName',
    'targetType',
  ]),
};

export const CONFIGURATION_POLICY: DeclaredProperties = {
  type: 'deviceManagementConfigurationPolicy',
  beta: propertiesOf<Beta.DeviceManagementConfigurationPolicy>()([
    'assignments',
    'createdDateTime',
    'creationSource',
    'description',
    'disableEntraGroupPolicyAssignment',
    'id',
    'isAssigned',
    'lastModifiedDateTime',
    'name',
    'platforms',
    'priorityMetaData',
    'roleScopeTagIds',
    'settingCount',
    'settings',
    'technologies',
    'templateReference',
  ]),
};

export const DEVICE_MANAGEMENT_SCRIPT: DeclaredProperties = {
  type: 'deviceManagementScript',
  beta: propertiesOf<Beta.DeviceManagementScript>()([
    'assignments',
    'createdDateTime',
    'description',
    'deviceRunStates',
    'displayName',
    'enforceSignatureCheck',
    'fileName',
    'groupAssignments',
    'id',
    'lastModifiedDateTime',
    'roleScopeTagIds',
    'runAs32Bit',
    'runAsAccount',
    'runSummary',
    'scriptContent',
    'userRunStates',
  ]),
};

export const DEVICE_HEALTH_SCRIPT: DeclaredProperties = {
  type: 'deviceHealthScript',
  beta: propertiesOf<Beta.DeviceHealthScript>()([
    'assignments',
    'createdDateTime',
    'description',
    'detectionScriptContent',
    'detectionScriptParameters',
    'deviceHealthScriptType',
    'deviceRunStates',
    'displayName',
    'enforceSignatureCheck',
    'highestAvailableVersion',
    'id',
    'isGlobalScript',
    'lastModifiedDateTime',
    'publisher',
    'remediationScriptContent',
    'remediationScriptParameters',
    'roleScopeTagIds',
    'runAs32Bit',
    'runAsAccount',
    'runSummary',
    'version',
  ]),
};

export const ASSIGNMENT_FILTER: DeclaredProperties = {
  type: 'deviceAndAppManagementAssignmentFilter',
  beta: propertiesOf<Beta.DeviceAndAppManagementAssignmentFilter>()([
    'assignmentFilterManagementType',
    'createdDateTime',
    'description',
    'displayName',
    'id',
    'lastModifiedDateTime',
    'payloads',
    'platform',
    'roleScopeTags',
    'rule',
  ]),
};

export const DEVICE_CONFIGURATION_ASSIGNMENT: DeclaredProperties = {
  type: 'deviceConfigurationAssignment',
  beta: propertiesOf<Beta.DeviceConfigurationAssignment>()(['id', 'intent', 'source', 'sourceId', 'target']),
};

export const DEVICE_COMPLIANCE_POLICY_ASSIGNMENT: DeclaredProperties = {
  type: 'deviceCompliancePolicyAssignment',
  beta: propertiesOf<Beta.DeviceCompliancePolicyAssignment>()(['id', 'source', 'sourceId', 'target']),
};

export const MOBILE_APP_ASSIGNMENT: DeclaredProperties = {
  type: 'mobileAppAssignment',
  beta: propertiesOf<Beta.MobileAppAssignment>()(['id', 'intent', 'settings', 'source', 'sourceId', 'target']),
};

/** The beta-only assignable types "what applies" and report 2 read with `$select` (reads.ts of report 2). */
export const GROUP_POLICY_CONFIGURATION: DeclaredProperties = {
  type: 'groupPolicyConfiguration',
  beta: propertiesOf<Beta.GroupPolicyConfiguration>()([
    'assignments',
    'createdDateTime',
    'definitionValues',
    'description',
    'displayName',
    'id',
    'lastModifiedDateTime',
    'policyConfigurationIngestionType',
    'roleScopeTagIds',
  ]),
};

export const DEVICE_SHELL_SCRIPT: DeclaredProperties = {
  type: 'deviceShellScript',
  beta: propertiesOf<Beta.DeviceShellScript>()([
    'assignments',
    'blockExecutionNotifications',
    'createdDateTime',
    'description',
    'deviceRunStates',
    'displayName',
    'executionFrequency',
    'fileName',
    'groupAssignments',
    'id',
    'lastModifiedDateTime',
    'retryCount',
    'roleScopeTagIds',
    'runAsAccount',
    'runSummary',
    'scriptContent',
    'userRunStates',
  ]),
};

export const WINDOWS_FEATURE_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsFeatureUpdateProfile',
  beta: propertiesOf<Beta.WindowsFeatureUpdateProfile>()([
    'assignments',
    'createdDateTime',
    'deployableContentDisplayName',
    'description',
    'displayName',
    'endOfSupportDate',
    'featureUpdateVersion',
    'id',
    'installFeatureUpdatesOptional',
    'installLatestWindows10OnWindows11IneligibleDevice',
    'lastModifiedDateTime',
    'roleScopeTagIds',
    'rolloutSettings',
  ]),
};

export const WINDOWS_QUALITY_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsQualityUpdateProfile',
  beta: propertiesOf<Beta.WindowsQualityUpdateProfile>()([
    'assignments',
    'createdDateTime',
    'deployableContentDisplayName',
    'description',
    'displayName',
    'expeditedUpdateSettings',
    'id',
    'lastModifiedDateTime',
    'releaseDateDisplayName',
    'roleScopeTagIds',
  ]),
};

export const WINDOWS_QUALITY_UPDATE_POLICY: DeclaredProperties = {
  type: 'windowsQualityUpdatePolicy',
  beta: propertiesOf<Beta.WindowsQualityUpdatePolicy>()([
    'approvalSettings',
    'assignments',
    'createdDateTime',
    'description',
    'displayName',
    'hotpatchEnabled',
    'id',
    'lastModifiedDateTime',
    'roleScopeTagIds',
  ]),
};

export const WINDOWS_DRIVER_UPDATE_PROFILE: DeclaredProperties = {
  type: 'windowsDriverUpdateProfile',
  beta: propertiesOf<Beta.WindowsDriverUpdateProfile>()([
    'approvalType',
    'assignments',
    'createdDateTime',
    'deploymentDeferralInDays',
    'description',
    'deviceReporting',
    'displayName',
    'driverInventories',
    'id',
    'inventorySyncStatus',
    'lastModifiedDateTime',
    'newUpdates',
    'roleScopeTagIds',
  ]),
};

export const COMPLIANCE_POLICY_V2: DeclaredProperties = {
  type: 'deviceManagementCompliancePolicy',
  beta: propertiesOf<Beta.DeviceManagementCompliancePolicy>()([
    'assignments',
    'createdDateTime',
    'creationSource',
    'description',
    'id',
    'isAssigned',
    'lastModifiedDateTime',
    'name',
    'platforms',
    'roleScopeTagIds',
    'scheduledActionsForRule',
    'settingCount',
    'settings',
    'technologies',
  ]),
};

/**
 * `deviceManagement/roleAssignments` holds `deviceAndAppManagementRoleAssignment` on both versions.
 * v1.0 declares only `members` beside the base type's fields; beta adds `roleScopeTagIds`,
 * `roleScopeTags`, `scopeMembers` and `scopeType` (the v1.0 and beta metadata), so a v1.0 `$select`
 * of the scope tags is a 400, as Graph answers it.
 */
export const ROLE_ASSIGNMENT: DeclaredProperties = {
  type: 'deviceAndAppManagementRoleAssignment',
  'v1.0': propertiesOf<Graph.DeviceAndAppManagementRoleAssignment>()(['description', 'displayName', 'id', 'members', 'resourceScopes', 'roleDefinition']),
  beta: propertiesOf<Beta.DeviceAndAppManagementRoleAssignment>()([
    'description',
    'displayName',
    'id',
    'members',
    'resourceScopes',
    'roleDefinition',
    'roleScopeTagIds',
    'roleScopeTags',
    'scopeMembers',
    'scopeType',
  ]),
};

/** `roleScopeTag`: beta only (v1.0 has no `roleScopeTags` collection). */
export const ROLE_SCOPE_TAG: DeclaredProperties = {
  type: 'roleScopeTag',
  beta: propertiesOf<Beta.RoleScopeTag>()(['assignments', 'description', 'displayName', 'id', 'isBuiltIn']),
};

/**
 * `deviceManagement/roleDefinitions` holds `deviceAndAppManagementRoleDefinition`, which adds nothing
 * to `roleDefinition` (learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroledefinition):
 * v1.0 declares `rolePermissions` (each `resourceActions`), `isBuiltIn` and the `roleAssignments`
 * navigation; beta adds `isBuiltInRoleDefinition`, the deprecated `permissions` and `roleScopeTagIds`.
 */
export const ROLE_DEFINITION: DeclaredProperties = {
  type: 'deviceAndAppManagementRoleDefinition',
  'v1.0': propertiesOf<Graph.DeviceAndAppManagementRoleDefinition>()(['description', 'displayName', 'id', 'isBuiltIn', 'roleAssignments', 'rolePermissions']),
  beta: propertiesOf<Beta.DeviceAndAppManagementRoleDefinition>()([
    'description',
    'displayName',
    'id',
    'isBuiltIn',
    'isBuiltInRoleDefinition',
    'permissions',
    'roleAssignments',
    'rolePermissions',
    'roleScopeTagIds',
  ]),
};

/**
 * A role definition's `roleAssignments` are of the base type `roleAssignment`
 * (learn.microsoft.com/graph/api/intune-rbac-roleassignment-list): v1.0 declares `resourceScopes` and
 * the `roleDefinition` navigation beside the entity's fields; beta adds `scopeMembers` and `scopeType`.
 */
export const ROLE_DEFINITION_ASSIGNMENT: DeclaredProperties = {
  type: 'roleAssignment',
  'v1.0': propertiesOf<Graph.RoleAssignment>()(['description', 'displayName', 'id', 'resourceScopes', 'roleDefinition']),
  beta: propertiesOf<Beta.RoleAssignment>()(['description', 'displayName', 'id', 'resourceScopes', 'roleDefinition', 'scopeMembers', 'scopeType']),
};
