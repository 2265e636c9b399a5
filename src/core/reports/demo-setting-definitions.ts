import type * as Beta from '@microsoft/microsoft-graph-types-beta';

/**
 * The settings catalog's definitions of the settings the demo tenant's policies set, as a policy's
 * `/settings?$expand=settingDefinitions` returns them: each setting carries the definitions of the
 * settings in its instance, its own and its children's (deviceManagementConfigurationSetting,
 * relationship `settingDefinitions`, "List of related Setting Definitions",
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsetting?view=graph-rest-beta;
 * Microsoft365DSC reads them with `Get-MgBetaDeviceManagementConfigurationPolicySetting
 * -ExpandProperty settingDefinitions` and finds a child's definition among its parent's). The
 * display names are the settings catalog's for these CSP nodes. A setting this table does not hold
 * is served without a definition, and the reports name it by its id.
 */
const DISPLAY_NAMES: Readonly<Record<string, string>> = {
  device_vendor_msft_policy_config_defender_allowcloudprotection: 'Allow Cloud Protection',
  device_vendor_msft_policy_config_defender_excludedpaths: 'Excluded Paths',
  device_vendor_msft_policy_config_camera_allowcamera: 'Allow Camera',
  device_vendor_msft_policy_config_experience_allowcortana: 'Allow Cortana',
  device_vendor_msft_policy_config_update_activehoursstart: 'Active Hours Start',
  device_vendor_msft_policy_config_update_activehoursend: 'Active Hours End',
  device_vendor_msft_policy_config_system_allowtelemetry: 'Allow Telemetry',
  vendor_msft_firewall_mdmstore_domainprofile_enablefirewall: 'Enable Domain Network Firewall',
  vendor_msft_firewall_mdmstore_privateprofile_enablefirewall: 'Enable Private Network Firewall',
  vendor_msft_firewall_mdmstore_publicprofile_enablefirewall: 'Enable Public Network Firewall',
  device_vendor_msft_policy_config_defender_attacksurfacereductionrules: 'Attack Surface Reduction Rules',
  'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}': 'Firewall Rules',
};

/**
 * The group collections among them, with how many entries their definition allows
 * (deviceManagementConfigurationSettingGroupCollectionDefinition, `minimumCount` and `maximumCount`,
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsettinggroupcollectiondefinition?view=graph-rest-beta):
 * what tells one group from a list (setting-values.ts).
 * - The ASR rules: one entry. The group maps to the one Defender/AttackSurfaceReductionRules node,
 *   a single string of `rule GUID=action` pairs ("Policy CSP - Defender", AttackSurfaceReductionRules,
 *   learn.microsoft.com/windows/client-management/mdm/policy-csp-defender#attacksurfacereductionrules),
 *   so a policy holds one entry, each rule a child of it.
 * - Firewall rules: many. "Each instance of this profile supports up to 150 custom rules" (Microsoft
 *   Learn, "Firewall policy for endpoint security in Intune",
 *   learn.microsoft.com/en-us/mem/intune/protect/endpoint-security-firewall-policy), each rule an
 *   entry under the MdmStore/FirewallRules/{FirewallRuleName} node ("Firewall CSP").
 */
const GROUP_COLLECTIONS: Readonly<Record<string, { minimumCount: number; maximumCount: number }>> = {
  device_vendor_msft_policy_config_defender_attacksurfacereductionrules: { minimumCount: 0, maximumCount: 1 },
  'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}': { minimumCount: 0, maximumCount: 150 },
};

/** A definition as the expansion returns it, kept to what identifies and names it, and a group collection's counts. */
function definition(id: string, displayName: string): Beta.DeviceManagementConfigurationSettingDefinition {
  const collection = GROUP_COLLECTIONS[id];
  if (collection)
    return {
      '@odata.type': '#microsoft.graph.deviceManagementConfigurationSettingGroupCollectionDefinition',
      id,
      name: id,
      displayName,
      ...collection,
    } as Beta.DeviceManagementConfigurationSettingGroupCollectionDefinition;
  return { '@odata.type': '#microsoft.graph.deviceManagementConfigurationSettingDefinition', id, name: id, displayName } as Beta.DeviceManagementConfigurationSettingDefinition;
}

/** Every `settingDefinitionId` in a setting instance's tree, the instance's own first. */
function definitionIds(node: unknown, ids: string[], depth = 0): string[] {
  if (depth > 32 || typeof node !== 'object' || node === null) return ids;
  if (Array.isArray(node)) {
    for (const item of node) definitionIds(item, ids, depth + 1);
    return ids;
  }
  const record = node as Record<string, unknown>;
  if (typeof record.settingDefinitionId === 'string' && !ids.includes(record.settingDefinitionId)) ids.push(record.settingDefinitionId);
  for (const [key, value] of Object.entries(record)) if (key !== 'settingDefinitionId' && typeof value === 'object') definitionIds(value, ids, depth + 1);
  return ids;
}

/** The definitions a setting's `settingDefinitions` holds: those of this table for the settings in its instance. */
export function demoSettingDefinitions(settingInstance: unknown): Beta.DeviceManagementConfigurationSettingDefinition[] {
  return definitionIds(settingInstance, []).flatMap((id) => (DISPLAY_NAMES[id] ? [definition(id, DISPLAY_NAMES[id])] : []));
}
