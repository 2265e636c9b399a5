/**
 * The Intune permission areas whose read this app checks in a viewer's roles (docs/finding-rules.md,
 * "Viewer scope"), and how Microsoft spells each. Which area opens which report is declared on the
 * report's definition (`seenBy`), and read through report-access.ts.
 */

/**
 * An Intune permission area whose read this app checks in a viewer's roles: endpoint analytics, which
 * opens tenant-wide report 6, and the areas of the objects the scope-tagged reports 2, 3 and 4 show.
 */
export type ReadArea = 'endpointAnalytics' | 'deviceConfigurations' | 'deviceCompliancePolicies' | 'mobileApps' | 'securityBaselines' | 'managedDevices';

/** An area of Intune whose objects carry no scope tags, and which a role's read permission opens. */
export type TenantWideArea = Extract<ReadArea, 'endpointAnalytics'>;

export interface AreaRead {
  /** The permission as the Intune admin center names it (Category/permission). */
  permission: string;
  /** The resource action a role definition's `rolePermissions[].resourceActions[].allowedResourceActions` lists for it. */
  action: string;
}

/**
 * Each area's read permission and its resource action, spelled as Microsoft spells it in role
 * definitions (Microsoft's Graph samples that create an Intune role, microsoftgraph/powershell-intune-samples,
 * and Microsoft365DSC's IntuneRoleDefinition `allowedResourceActions`), "DeviceCompliancePolices"
 * with its missing "i" included. The permissions are those of "Custom role permissions"
 * (learn.microsoft.com/intune/intune-service/fundamentals/create-custom-role).
 */
export const AREA_READS: Readonly<Record<ReadArea, AreaRead>> = {
  endpointAnalytics: { permission: 'Endpoint Analytics/Read', action: 'Microsoft.Intune_EndpointAnalytics_Read' },
  deviceConfigurations: { permission: 'Device configurations/Read', action: 'Microsoft.Intune_DeviceConfigurations_Read' },
  deviceCompliancePolicies: { permission: 'Device compliance policies/Read', action: 'Microsoft.Intune_DeviceCompliancePolices_Read' },
  mobileApps: { permission: 'Mobile apps/Read', action: 'Microsoft.Intune_MobileApps_Read' },
  securityBaselines: { permission: 'Security baselines/Read', action: 'Microsoft.Intune_SecurityBaselines_Read' },
  managedDevices: { permission: 'Managed devices/Read', action: 'Microsoft.Intune_ManagedDevices_Read' },
};

/** Every area, in a fixed order. */
export const READ_AREAS = Object.keys(AREA_READS) as ReadArea[];
