/**
 * What Microsoft Graph's `/v1.0` schema leaves out of the Intune collections that the beta schema
 * has. `/v1.0` answers with the records whose type its own schema declares and silently leaves the
 * rest out, so a tenant's Wi-Fi profiles, WinGet apps or AOSP compliance policies are simply absent
 * from a `/v1.0` list (docs/using.md, "What /v1.0 cannot show").
 *
 * The lists are the derived types of `deviceConfiguration`, `deviceCompliancePolicy` and `mobileApp`
 * in the beta metadata that the v1.0 metadata does not declare, taken from Microsoft's published
 * CSDL (github.com/microsoftgraph/msgraph-metadata, as generated into the
 * `@microsoft/microsoft-graph-types` 2.43 and `-beta` 0.44 packages). Abstract base types are
 * listed too: no record carries them, so they change nothing.
 */

/** `deviceConfiguration` subtypes `/v1.0` leaves out of `/deviceManagement/deviceConfigurations`. */
export const BETA_ONLY_DEVICE_CONFIGURATION_TYPES: readonly string[] = [
  'androidCertificateProfileBase',
  'androidDeviceOwnerCertificateProfileBase',
  'androidDeviceOwnerDerivedCredentialAuthenticationConfiguration',
  'androidDeviceOwnerEnterpriseWiFiConfiguration',
  'androidDeviceOwnerGeneralDeviceConfiguration',
  'androidDeviceOwnerImportedPFXCertificateProfile',
  'androidDeviceOwnerPkcsCertificateProfile',
  'androidDeviceOwnerScepCertificateProfile',
  'androidDeviceOwnerTrustedRootCertificate',
  'androidDeviceOwnerVpnConfiguration',
  'androidDeviceOwnerWiFiConfiguration',
  'androidEasEmailProfileConfiguration',
  'androidEnterpriseWiFiConfiguration',
  'androidForWorkCertificateProfileBase',
  'androidForWorkCustomConfiguration',
  'androidForWorkEasEmailProfileBase',
  'androidForWorkEnterpriseWiFiConfiguration',
  'androidForWorkGeneralDeviceConfiguration',
  'androidForWorkGmailEasConfiguration',
  'androidForWorkImportedPFXCertificateProfile',
  'androidForWorkNineWorkEasConfiguration',
  'androidForWorkPkcsCertificateProfile',
  'androidForWorkScepCertificateProfile',
  'androidForWorkTrustedRootCertificate',
  'androidForWorkVpnConfiguration',
  'androidForWorkWiFiConfiguration',
  'androidImportedPFXCertificateProfile',
  'androidOmaCpConfiguration',
  'androidPkcsCertificateProfile',
  'androidScepCertificateProfile',
  'androidTrustedRootCertificate',
  'androidVpnConfiguration',
  'androidWiFiConfiguration',
  'androidWorkProfileCertificateProfileBase',
  'androidWorkProfileEasEmailProfileBase',
  'androidWorkProfileEnterpriseWiFiConfiguration',
  'androidWorkProfileGmailEasConfiguration',
  'androidWorkProfileNineWorkEasConfiguration',
  'androidWorkProfilePkcsCertificateProfile',
  'androidWorkProfileScepCertificateProfile',
  'androidWorkProfileTrustedRootCertificate',
  'androidWorkProfileVpnConfiguration',
  'androidWorkProfileWiFiConfiguration',
  'aospDeviceOwnerCertificateProfileBase',
  'aospDeviceOwnerDeviceConfiguration',
  'aospDeviceOwnerEnterpriseWiFiConfiguration',
  'aospDeviceOwnerPkcsCertificateProfile',
  'aospDeviceOwnerScepCertificateProfile',
  'aospDeviceOwnerTrustedRootCertificate',
  'aospDeviceOwnerWiFiConfiguration',
  'appleExpeditedCheckinConfigurationBase',
  'appleVpnConfiguration',
  'easEmailProfileConfigurationBase',
  'iosCertificateProfileBase',
  'iosDerivedCredentialAuthenticationConfiguration',
  'iosEasEmailProfileConfiguration',
  'iosEduDeviceConfiguration',
  'iosEducationDeviceConfiguration',
  'iosEnterpriseWiFiConfiguration',
  'iosExpeditedCheckinConfiguration',
  'iosImportedPFXCertificateProfile',
  'iosPkcsCertificateProfile',
  'iosScepCertificateProfile',
  'iosTrustedRootCertificate',
  'iosVpnConfiguration',
  'iosWiFiConfiguration',
  'iosWiredNetworkConfiguration',
  'iosikEv2VpnConfiguration',
  'macOSCertificateProfileBase',
  'macOSCustomAppConfiguration',
  'macOSEndpointProtectionConfiguration',
  'macOSEnterpriseWiFiConfiguration',
  'macOSExtensionsConfiguration',
  'macOSImportedPFXCertificateProfile',
  'macOSPkcsCertificateProfile',
  'macOSScepCertificateProfile',
  'macOSSoftwareUpdateConfiguration',
  'macOSTrustedRootCertificate',
  'macOSVpnConfiguration',
  'macOSWiFiConfiguration',
  'macOSWiredNetworkConfiguration',
  'unsupportedDeviceConfiguration',
  'vpnConfiguration',
  'windows10CertificateProfileBase',
  'windows10DeviceFirmwareConfigurationInterface',
  'windows10EasEmailProfileConfiguration',
  'windows10ImportedPFXCertificateProfile',
  'windows10NetworkBoundaryConfiguration',
  'windows10PFXImportCertificateProfile',
  'windows10PkcsCertificateProfile',
  'windows10VpnConfiguration',
  'windows81CertificateProfileBase',
  'windows81SCEPCertificateProfile',
  'windows81TrustedRootCertificate',
  'windows81VpnConfiguration',
  'windows81WifiImportConfiguration',
  'windowsCertificateProfileBase',
  'windowsDeliveryOptimizationConfiguration',
  'windowsDomainJoinConfiguration',
  'windowsHealthMonitoringConfiguration',
  'windowsIdentityProtectionConfiguration',
  'windowsKioskConfiguration',
  'windowsPhone81CertificateProfileBase',
  'windowsPhone81ImportedPFXCertificateProfile',
  'windowsPhone81SCEPCertificateProfile',
  'windowsPhone81TrustedRootCertificate',
  'windowsPhone81VpnConfiguration',
  'windowsPhoneEASEmailProfileConfiguration',
  'windowsVpnConfiguration',
  'windowsWifiConfiguration',
  'windowsWifiEnterpriseEAPConfiguration',
  'windowsWiredNetworkConfiguration',
];

/** `deviceCompliancePolicy` subtypes `/v1.0` leaves out of `/deviceManagement/deviceCompliancePolicies`. */
export const BETA_ONLY_COMPLIANCE_POLICY_TYPES: readonly string[] = [
  'androidDeviceOwnerCompliancePolicy',
  'androidForWorkCompliancePolicy',
  'aospDeviceOwnerCompliancePolicy',
  'defaultDeviceCompliancePolicy',
];

/** `mobileApp` subtypes `/v1.0` leaves out of `/deviceAppManagement/mobileApps`. */
export const BETA_ONLY_MOBILE_APP_TYPES: readonly string[] = [
  'androidForWorkApp',
  'androidManagedStoreApp',
  'androidManagedStoreWebApp',
  'macOSPkgApp',
  'macOSWebClip',
  'macOsVppApp',
  'officeSuiteApp',
  'win32CatalogApp',
  'winGetApp',
  'windowsPhone81AppX',
  'windowsPhone81AppXBundle',
  'windowsPhone81StoreApp',
  'windowsPhoneXAP',
  'windowsStoreApp',
];

/**
 * `managedDevice.joinType` (`unknown`, `azureADJoined`, `azureADRegistered`, `hybridAzureADJoined`)
 * is declared in the beta schema only (learn.microsoft.com/graph/api/resources/intune-devices-jointype,
 * a beta page); `/v1.0` does not return it. Nor the device's scope tags (`BETA_ONLY_SCOPE_TAG_PROPERTIES`).
 */
export const BETA_ONLY_MANAGED_DEVICE_PROPERTIES: readonly string[] = ['joinType', 'roleScopeTagIds'];

/**
 * `roleScopeTagIds`, an object's scope tags, is declared on `deviceConfiguration`,
 * `deviceCompliancePolicy`, `mobileApp` and `managedDevice` in the beta schema only
 * (learn.microsoft.com/graph/api/resources/intune-shared-deviceconfiguration?view=graph-rest-beta,
 * intune-shared-devicecompliancepolicy, intune-apps-mobileapp and intune-shared-manageddevice, each
 * beta against ?view=graph-rest-1.0; the v1.0 metadata, as entity-properties.ts lists it): `/v1.0`
 * answers 400 to a `$select` of it and sends it in no record.
 */
export const BETA_ONLY_SCOPE_TAG_PROPERTIES: readonly string[] = ['roleScopeTagIds'];

/**
 * `mobileThreatPartnerTenantState` on `/v1.0` ends at `unknownFutureValue`; beta adds `notSetUp` and
 * `error` after it (intune-onboarding-mobilethreatpartnertenantstate, v1.0 and beta). `/v1.0` sends
 * those as `unknownFutureValue`, and no `Prefer` header brings them back on that segment.
 */
export const BETA_ONLY_MTD_PARTNER_STATES: readonly string[] = ['notSetUp', 'error'];

/**
 * Assignment filters on a target: `deviceAndAppManagementAssignmentFilterId` and `…FilterType` are
 * declared on `deviceAndAppManagementAssignmentTarget` in the beta schema only; in the v1.0 schema the
 * type is abstract with no properties, and the v1.0 `groupAssignmentTarget` page lists only `groupId`
 * (learn.microsoft.com/graph/api/resources/intune-shared-groupassignmenttarget?view=graph-rest-1.0 and
 * ?view=graph-rest-beta). Paths into an expanded record, `[]` marking an array.
 */
export const BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES: readonly string[] = [
  'assignments[].target.deviceAndAppManagementAssignmentFilterId',
  'assignments[].target.deviceAndAppManagementAssignmentFilterType',
];

/**
 * `mobileAppRelationship` is abstract, and the v1.0 schema declares none of its subtypes
 * (`mobileAppDependency`, `mobileAppSupersedence` are beta only: intune-apps-mobileapprelationship,
 * ?view=graph-rest-1.0, against ?view=graph-rest-beta). `/v1.0` answers the entity set, and, as for
 * every type it does not declare, leaves the records out: an empty list, the strict case.
 */
export const BETA_ONLY_MOBILE_APP_RELATIONSHIP_TYPES: readonly string[] = ['mobileAppDependency', 'mobileAppSupersedence'];

/**
 * `vppToken` properties only the beta schema declares (github.com/microsoftgraph/msgraph-metadata:
 * the v1.0 CSDL's vppToken has appleId, automaticallyUpdateApps, countryOrRegion,
 * expirationDateTime, lastModifiedDateTime, lastSyncDateTime, lastSyncStatus, organizationName,
 * state, token and vppTokenAccountType). Beta's `vppTokenState` member `duplicateLocationId` is not
 * in the v1.0 enum either; what `/v1.0` sends for it Microsoft does not document, so the look-alike
 * sends the stored value and the report treats any value it does not know as a warning naming it.
 */
export const BETA_ONLY_VPP_TOKEN_PROPERTIES: readonly string[] = [
  'appleDeviceAppDeliveryProtocolType',
  'claimTokenManagementFromExternalMdm',
  'dataSharingConsentGranted',
  'displayName',
  'locationName',
  'roleScopeTagIds',
  'tokenActionResults',
];
