import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { ASR_RULES } from './security-posture/derive.js';
import { ASR_RULES_SETTING } from '../policy-settings/settings-read.js';

/** A setting's definition as the demo serves it: its display name and, for a choice, its options' display names by option id suffix. */
interface DemoDefinition {
  displayName: string;
  options?: Readonly<Record<string, string>>;
}

const ALLOWED = (what: string) => ({ '0': `Not allowed. Turns off ${what}.`, '1': `Allowed. Turns on ${what}.` });
const ASR_OPTIONS = { off: 'Off', block: 'Block', audit: 'Audit', warn: 'Warn' } as const;
const FIREWALL_OPTIONS = { false: 'False', true: 'True' } as const;

/**
 * Report 3's large Defender policy sets these besides its ASR rules (security-posture/demo.ts,
 * `DEFENDER_SETTINGS`), each to an option id ending in 1, only so that it holds many settings. The
 * settings are named as the settings catalog names the Policy CSP's Defender nodes, the node in words
 * ("Policy CSP - Defender", learn.microsoft.com/windows/client-management/mdm/policy-csp-defender);
 * the names of their options are this demo's own, in the catalog's manner, since not every one of
 * these settings is a choice with an option 1 in the real catalog.
 */
const DEFENDER_FILLER: Readonly<Record<string, [string, string]>> = {
  allowarchivescanning: ['Allow Archive Scanning', 'Allowed. Scans the archive files.'],
  allowbehaviormonitoring: ['Allow Behavior Monitoring', 'Allowed. Turns on real-time behavior monitoring.'],
  allowemailscanning: ['Allow Email Scanning', 'Allowed. Turns on email scanning.'],
  allowfullscanonmappednetworkdrives: ['Allow Full Scan On Mapped Network Drives', 'Allowed. Scans mapped network drives.'],
  allowfullscanremovabledrivescanning: ['Allow Full Scan Removable Drive Scanning', 'Allowed. Scans removable drives.'],
  allowintrusionpreventionsystem: ['Allow Intrusion Prevention System', 'Allowed.'],
  allowioavprotection: ['Allow scanning of all downloaded files and attachments', 'Allowed.'],
  allowonaccessprotection: ['Allow On Access Protection', 'Allowed.'],
  allowrealtimemonitoring: ['Allow Realtime Monitoring', 'Allowed. Turns on and runs the real-time monitoring service.'],
  allowscanningnetworkfiles: ['Allow Scanning Network Files', 'Allowed. Scans network files.'],
  allowscriptscanning: ['Allow Script Scanning', 'Allowed.'],
  allowuseruiaccess: ['Allow User UI Access', 'Allowed. Lets users access UI.'],
  avgcpuloadfactor: ['Avg CPU Load Factor', '1'],
  checkforsignaturesbeforerunningscan: ['Check For Signatures Before Running Scan', 'Enabled'],
  cloudblocklevel: ['Cloud Block Level', 'Moderate'],
  cloudextendedtimeout: ['Cloud Extended Timeout', '1'],
  daystoretaincleanedmalware: ['Days To Retain Cleaned Malware', '1'],
  disablecatchupfullscan: ['Disable Catchup Full Scan', 'Disabled'],
  disablecatchupquickscan: ['Disable Catchup Quick Scan', 'Disabled'],
  enablelowcpupriority: ['Enable Low CPU Priority', 'Enabled'],
  enablenetworkprotection: ['Enable Network Protection', 'Enabled (block mode)'],
  puaprotection: ['PUA Protection', 'PUA Protection on. Detected items are blocked. They will show in history along with other threats.'],
  realtimescandirection: ['Real Time Scan Direction', 'Monitor incoming files.'],
  scanparameter: ['Scan Parameter', 'Quick scan'],
  schedulequickscantime: ['Schedule Quick Scan Time', '1'],
  schedulescanday: ['Schedule Scan Day', 'Sunday'],
  schedulescantime: ['Schedule Scan Time', '1'],
  signatureupdateinterval: ['Signature Update Interval', '1'],
  submitsamplesconsent: ['Submit Samples Consent', 'Send all samples automatically.'],
  engineupdateschannel: ['Engine Updates Channel', 'Beta Channel'],
  platformupdateschannel: ['Platform Updates Channel', 'Beta Channel'],
  signatureupdateschannel: ['Security Intelligence Updates Channel', 'Beta Channel'],
  meteredconnectionupdates: ['Metered Connection Updates', 'Allowed'],
  disablelocaladminmerge: ['Disable Local Admin Merge', 'Disable Local Admin Merge'],
  allowdatagramprocessingonwinserver: ['Allow Datagram Processing On Win Server', 'Datagram processing on Windows Server is enabled.'],
  disablednsovertcpparsing: ['Disable Dns Over Tcp Parsing', 'DNS over TCP parsing is disabled'],
  disablehttpparsing: ['Disable Http Parsing', 'HTTP parsing is disabled'],
  disablesshparsing: ['Disable Ssh Parsing', 'SSH parsing is disabled'],
};

const ASR = ASR_RULES_SETTING;
const FIREWALL_RULES = 'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}';

/**
 * The settings catalog's definitions of every setting the demo tenant's policies set, as a policy's
 * `/settings?$expand=settingDefinitions` returns them: each setting carries the definitions of the
 * settings in its instance, its own and its children's (deviceManagementConfigurationSetting,
 * relationship `settingDefinitions`, "List of related Setting Definitions",
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsetting?view=graph-rest-beta;
 * Microsoft365DSC reads them with `Get-MgBetaDeviceManagementConfigurationPolicySetting
 * -ExpandProperty settingDefinitions` and finds a child's definition among its parent's). A choice's
 * definition is a deviceManagementConfigurationChoiceSettingDefinition whose `options` each carry
 * the `itemId` a setting's value holds and the `displayName` the admin center shows
 * (learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationchoicesettingdefinition?view=graph-rest-beta).
 * The names are the settings catalog's: Allow Cloud Protection's and Scheduled Install Day's options,
 * Allow Cortana's ("Block", "Allow") and Allow Telemetry's ("Security", "Basic", "Enhanced", "Full")
 * as Graph returns them for those definitions. Integers carry no unit: no property of a setting
 * definition or of its value definition holds one (deviceManagementConfigurationIntegerSettingValueDefinition
 * has `minimumValue` and `maximumValue` only, Graph beta metadata). A setting this table does not
 * hold is served without a definition, and the reports name it by its id; every setting the demo
 * sets is here (test/core/reports/setting-names.test.ts).
 */
const DEFINITIONS: Readonly<Record<string, DemoDefinition>> = {
  device_vendor_msft_policy_config_defender_allowcloudprotection: { displayName: 'Allow Cloud Protection', options: ALLOWED('Cloud Protection') },
  device_vendor_msft_policy_config_defender_excludedpaths: { displayName: 'Excluded Paths' },
  device_vendor_msft_policy_config_camera_allowcamera: { displayName: 'Allow Camera', options: { '0': 'Not allowed.', '1': 'Allowed.' } },
  device_vendor_msft_policy_config_experience_allowcortana: { displayName: 'Allow Cortana', options: { '0': 'Block', '1': 'Allow' } },
  device_vendor_msft_policy_config_update_activehoursstart: { displayName: 'Active Hours Start' },
  device_vendor_msft_policy_config_update_activehoursend: { displayName: 'Active Hours End' },
  device_vendor_msft_policy_config_update_scheduledinstalltime: { displayName: 'Scheduled Install Time' },
  device_vendor_msft_policy_config_devicelock_maxinactivitytimedevicelock: { displayName: 'Max Inactivity Time Device Lock' },
  device_vendor_msft_policy_config_update_scheduledinstallday: {
    displayName: 'Scheduled Install Day',
    options: { '0': 'Every day', '1': 'Sunday', '2': 'Monday', '3': 'Tuesday', '4': 'Wednesday', '5': 'Thursday', '6': 'Friday', '7': 'Saturday' },
  },
  device_vendor_msft_policy_config_system_allowtelemetry: { displayName: 'Allow Telemetry', options: { '0': 'Security', '1': 'Basic', '2': 'Enhanced', '3': 'Full' } },
  device_vendor_msft_windowsadvancedthreatprotection_onboarding: { displayName: 'Onboarding (Device)' },
  // macOS's Screen Saver payload (com.apple.screensaver) in the settings catalog: the seconds before the password is asked for.
  'com.apple.screensaver_askforpassworddelay': { displayName: 'Ask For Password Delay' },
  device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdevicesetupclasses: {
    displayName: 'Prevent installation of devices using drivers that match these device setup classes',
    options: { '0': 'Disabled', '1': 'Enabled' },
  },
  device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdevicesetupclasses_deviceinstall_classes_deny_list: { displayName: 'Prevented Classes' },
  device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdevicesetupclasses_deviceinstall_classes_deny_retroactive: {
    displayName: 'Also apply to matching devices that are already installed.',
    options: { '0': 'False', '1': 'True' },
  },
  vendor_msft_firewall_mdmstore_domainprofile_enablefirewall: { displayName: 'Enable Domain Network Firewall', options: FIREWALL_OPTIONS },
  vendor_msft_firewall_mdmstore_privateprofile_enablefirewall: { displayName: 'Enable Private Network Firewall', options: FIREWALL_OPTIONS },
  vendor_msft_firewall_mdmstore_publicprofile_enablefirewall: { displayName: 'Enable Public Network Firewall', options: FIREWALL_OPTIONS },
  [ASR]: { displayName: 'Attack Surface Reduction Rules' },
  // Each rule as the settings catalog names it: its name in "Attack surface reduction rules reference" (report 3's table).
  ...Object.fromEntries(Object.entries(ASR_RULES).map(([rule, { name }]) => [`${ASR}_${rule}`, { displayName: name, options: ASR_OPTIONS }])),
  ...Object.fromEntries(
    Object.entries(DEFENDER_FILLER).map(([node, [displayName, one]]) => [`device_vendor_msft_policy_config_defender_${node}`, { displayName, options: { '1': one } }]),
  ),
  [FIREWALL_RULES]: { displayName: 'Firewall Rules' },
  [`${FIREWALL_RULES}_name`]: { displayName: 'Name' },
  [`${FIREWALL_RULES}_action_type`]: { displayName: 'Action', options: { '0': 'Block', '1': 'Allow' } },
  [`${FIREWALL_RULES}_direction`]: { displayName: 'Direction', options: { in: 'Inbound', out: 'Outbound' } },
  [`${FIREWALL_RULES}_localportranges`]: { displayName: 'Local Port Ranges' },
};

/**
 * The group collections among them, with how many entries their definition allows
 * (deviceManagementConfigurationSettingGroupCollectionDefinition, `minimumCount` and `maximumCount`,
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsettinggroupcollectiondefinition?view=graph-rest-beta):
 * what tells one group from a list (src/core/policy-settings/setting-values.ts).
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
  [ASR]: { minimumCount: 0, maximumCount: 1 },
  [FIREWALL_RULES]: { minimumCount: 0, maximumCount: 150 },
};

/** A definition as the expansion returns it, kept to what identifies and names it, a choice's options, and a group collection's counts. */
function definition(id: string, entry: DemoDefinition): Beta.DeviceManagementConfigurationSettingDefinition {
  const { displayName } = entry;
  const collection = GROUP_COLLECTIONS[id];
  if (collection)
    return {
      '@odata.type': '#microsoft.graph.deviceManagementConfigurationSettingGroupCollectionDefinition',
      id,
      name: id,
      displayName,
      ...collection,
    } as Beta.DeviceManagementConfigurationSettingGroupCollectionDefinition;
  if (entry.options)
    return {
      '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingDefinition',
      id,
      name: id,
      displayName,
      options: Object.entries(entry.options).map(([suffix, name]) => ({ itemId: `${id}_${suffix}`, displayName: name })),
    } as Beta.DeviceManagementConfigurationChoiceSettingDefinition;
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
  return definitionIds(settingInstance, []).flatMap((id) => (Object.hasOwn(DEFINITIONS, id) ? [definition(id, DEFINITIONS[id]!)] : []));
}
