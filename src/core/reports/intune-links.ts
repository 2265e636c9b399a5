/**
 * Deep links into the Microsoft Intune admin center, one place for every pattern. Only patterns
 * with a source are here (research notes, intune-semantics section 8: links used by several
 * maintained community tools); objects the portal has no sourced page for link to their list page
 * or to tenant status.
 */
const PORTAL = 'https://intune.microsoft.com/#view/';

const segment = (value: string) => encodeURIComponent(value);

export const intuneLinks = {
  managedDevice: (managedDeviceId: string) => `${PORTAL}Microsoft_Intune_Devices/DeviceSettingsMenuBlade/~/overview/mdmDeviceId/${segment(managedDeviceId)}`,
  deviceConfiguration: (id: string) => `${PORTAL}Microsoft_Intune_DeviceSettings/ConfigurationMenuBlade/~/properties/configurationId/${segment(id)}`,
  compliancePolicy: (id: string, displayName: string) =>
    `${PORTAL}Microsoft_Intune_DeviceSettings/CompliancePolicyOverview.ReactView/policyId/${segment(id)}/policyName/${segment(displayName)}/platform~/0/policyType~/0`,
  /** Settings catalog, endpoint security and settings-catalog baseline policies. */
  configurationPolicy: (policy: { id: string; isAssigned: boolean; technologies: string; templateId: string; platforms: string }) =>
    `${PORTAL}Microsoft_Intune_Workflows/PolicySummaryBlade/policyId/${segment(policy.id)}/isAssigned~/${policy.isAssigned}/technology/${segment(policy.technologies)}/templateId/${segment(policy.templateId)}/platformName/${segment(policy.platforms)}`,
  mobileApp: (id: string) => `${PORTAL}Microsoft_Intune_Apps/SettingsMenu/~/2/appId/${segment(id)}`,
  platformScript: (id: string) => `${PORTAL}Microsoft_Intune_DeviceSettings/ConfigureWMPolicyMenuBlade/~/properties/policyId/${segment(id)}/policyType~/0`,
  remediation: (id: string) => `${PORTAL}Microsoft_Intune_Enrollment/UXAnalyticsScriptMenu/~/overview/id/${segment(id)}`,
  certificateConnectors: () => `${PORTAL}Microsoft_Intune_DeviceSettings/TenantAdminConnectorsMenu/~/certConnectors`,
  defenderConnector: () => `${PORTAL}Microsoft_Intune_DeviceSettings/TenantAdminConnectorsMenu/~/windowsDefenderATP`,
  managedGooglePlay: () => `${PORTAL}Microsoft_Intune_Apps/ManagedGooglePlaySyncBlade`,
  tenantStatus: () => `${PORTAL}Microsoft_Intune_DeviceSettings/TenantAdminMenu/~/tenantStatus`,
  multiAdminApproval: () => `${PORTAL}Microsoft_Intune_DeviceSettings/TenantAdminMenu/~/multiAdminApproval`,
  attackSurfaceReduction: () => `${PORTAL}Microsoft_Intune_Workflows/SecurityManagementMenu/~/asr`,
  /**
   * The security baselines list (Endpoint security > Security baselines), for an intent-era
   * baseline, which has no sourced page of its own; the Australian Signals Directorate's Blueprint
   * for Secure Cloud names this blade for its Intune baseline pages.
   */
  securityBaselines: () => `${PORTAL}Microsoft_Intune_Workflows/SecurityManagementMenu/~/securityBaselines`,
  /**
   * Lists, for objects whose own page no Microsoft source gives a link to: Devices > Configuration
   * (Administrative Templates are listed there), Devices > Compliance, Devices > Scripts and
   * remediations (macOS shell scripts), Devices > Windows updates (feature, quality and driver
   * updates). These blade paths are not documented by Microsoft either: they are the admin center's
   * own menu entries, and the link's label says it opens a list.
   */
  configurationList: () => `${PORTAL}Microsoft_Intune_DeviceSettings/DevicesMenu/~/configuration`,
  complianceList: () => `${PORTAL}Microsoft_Intune_DeviceSettings/DevicesMenu/~/compliance`,
  scriptsList: () => `${PORTAL}Microsoft_Intune_DeviceSettings/DevicesMenu/~/scripts`,
  /** Apps > All apps, and Devices > Filters: the lists a deleted app and a filter open (the change feed). */
  appsList: () => `${PORTAL}Microsoft_Intune_DeviceSettings/AppsMenu/~/allApps`,
  assignmentFilters: () => `${PORTAL}Microsoft_Intune_DeviceSettings/DevicesMenu/~/assignmentFilters`,
  windowsUpdatesList: () => `${PORTAL}Microsoft_Intune_DeviceSettings/DevicesMenu/~/windows10Update`,
  endpointAnalytics: () => `${PORTAL}Microsoft_Intune_Enrollment/UXAnalyticsMenu/~/overview`,
} as const;
