/**
 * What the demo tenant plants so "what applies" shows each of its rules (docs/finding-rules.md,
 * "What applies"): a nested chain of groups, an exclusion through a nested group, a group whose
 * members cannot be read, an assignment filter that keeps Windows 11 devices out and one that lets
 * them in, apps with each intent, and primary users with several devices. None of it is a report 2
 * finding: every group has members and no object has both All users and All devices.
 */

import type { DemoRecord } from '../reports/report-demo.js';
import type { DemoGroup } from '../reports/report-demo.js';
import * as records from '../reports/assignment-hygiene/demo-records.js';
import type { Target } from '../reports/assignment-hygiene/demo-records.js';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, plantConfigurationPolicy } from '../reports/demo-records.js';

export interface AppliesDemoBuilder {
  readonly now: Date;
  guid(): string;
  readonly users: readonly string[];
  readonly groups: Readonly<Record<DemoGroup, string>>;
  /**
   * Adds a group whose members are the given users, devices (Entra object ids) and groups;
   * `membersFault` makes its member list answer that status; `HiddenMembership` shows its members
   * only to an app holding Member.Read.Hidden.
   */
  addGroup(group: {
    displayName: string;
    userIds?: readonly string[];
    deviceIds?: readonly string[];
    groupIds?: readonly string[];
    membersFault?: 403 | 500;
    visibility?: 'HiddenMembership';
  }): string;
  /**
   * Adds the Entra device object of a managed device (its `azureADDeviceId` is the Entra `deviceId`,
   * learn.microsoft.com/graph/api/resources/intune-devices-manageddevice) and returns its object id,
   * which device groups list.
   */
  addEntraDevice(device: { deviceId: string; displayName: string }): string;
  add(collection: string, ...records: DemoRecord[]): void;
  records(collection: string): readonly DemoRecord[];
}

/** The demo's names, for tests and the README. */
export const APPLIES_DEMO = {
  /** A Windows device whose primary user (user40) is in Sales EMEA and in Executives. */
  device: 'CONTOSO-0040',
  user: 'user41@contoso-demo.example',
  chain: ['Regional Offices', 'Sales', 'Sales EMEA'],
  exclusion: ['VPN Exclusions', 'Executives'],
  /** A group whose membership for CONTOSO-0040 cannot be told by the demo app: a device group, read only with Device.Read.All. */
  unreadable: 'Managed PCs',
  /** Reach CONTOSO-0040 through its primary user, and are for iOS, macOS and Android. */
  otherPlatforms: ['Sales CRM for iPhone', 'Sales Mac FileVault', 'Sales Android compliance'],
  /** An exclude filter beside an assignment with none; two include filters, one of which matches. */
  filterModes: { excluded: 'Windows 10 tidy-up', ored: 'Windows 11 or lab diagnostics' },
  intents: { requiredOverUninstall: 'Contoso Softphone', requiredAndAvailable: 'Sales Analytics' },
  mixedGroups: { userExclusionOnAllDevices: 'Device firewall rules', deviceExclusionOnUserGroup: 'Sales printers' },
  hidden: { group: 'Board members', object: 'Regional file shares' },
  /**
   * Object types only beta has, each reaching CONTOSO-0040 through its primary user's groups but the
   * macOS script, which goes to All devices (so to every Mac) and the Linux compliance policy.
   */
  types: {
    administrativeTemplate: 'Regional Edge settings (ADMX)',
    macOSShellScript: 'Mac onboarding script',
    featureUpdate: 'Regional Windows 11 feature update',
    intent: 'Regional Defender antivirus (intent)',
    linuxCompliance: 'Regional Linux compliance',
  },
  /** A profile read on /v1.0 whose assignment, read again on /beta, has an exclude filter CONTOSO-0040 matches. */
  v1ExcludeFilter: 'Windows 10 legacy settings',
  /** CONTOSO-0040's Entra device is in Lobby PCs, nested in Managed PCs: decided with Device.Read.All, unknown without. */
  deviceGroups: { chain: ['Managed PCs', 'Lobby PCs'], object: 'Lobby screen saver', app: 'Lobby sign-in kiosk' },
} as const;

export function plantAppliesDemo(tenant: AppliesDemoBuilder): void {
  const { users, now } = tenant;
  // Primary users: the managed device's `userId` is its primary user's Entra object id
  // (learn.microsoft.com/graph/api/resources/intune-devices-manageddevice). Each demo device's UPN
  // names user<n>, so several devices share a user.
  for (const device of tenant.records('managedDevices')) {
    const index = /^user(\d+)@/.exec(String(device.userPrincipalName ?? ''))?.[1];
    if (index !== undefined && users[Number(index)]) (device as Record<string, unknown>).userId = users[Number(index)];
  }
  const salesEmea = tenant.addGroup({ displayName: 'Sales EMEA', userIds: users.slice(40, 45) });
  const sales = tenant.addGroup({ displayName: 'Sales', groupIds: [salesEmea] });
  const regional = tenant.addGroup({ displayName: 'Regional Offices', groupIds: [sales] });
  const executives = tenant.addGroup({ displayName: 'Executives', userIds: [users[40]!] });
  const vpnExclusions = tenant.addGroup({ displayName: 'VPN Exclusions', groupIds: [executives] });
  // Its member list answers 500: "what applies" does not read assigned groups' members (it reads the subject's groups), so it is decided all the same.
  const contractors = tenant.addGroup({ displayName: 'Contractors', userIds: users.slice(40, 48), membersFault: 500 });
  const filter = records.assignmentFilter({
    id: tenant.guid(),
    displayName: 'Windows 11 devices',
    platform: 'windows10AndLater',
    rule: '(device.osVersion -startsWith "10.0.22")',
    now,
  });
  tenant.add('assignmentFilters', filter);
  const include = (groupId: string): Target => ({ kind: 'include', groupId });
  const configuration = (displayName: string, targets: Target[]) =>
    tenant.add('deviceConfigurations', records.deviceConfiguration({ id: tenant.guid(), displayName, targets, now }));
  const remediation = (displayName: string, targets: Target[]) => tenant.add('deviceHealthScripts', records.deviceHealthScript({ id: tenant.guid(), displayName, targets, now }));
  // A nested chain: Regional Offices → Sales → Sales EMEA → user40..44.
  configuration('Regional Wi-Fi', [include(regional)]);
  // The same chain, with an exclusion through a nested group: VPN Exclusions → Executives → user40.
  configuration('Regional VPN', [include(regional), { kind: 'exclude', groupId: vpnExclusions }]);
  tenant.add('deviceCompliancePolicies', records.deviceCompliancePolicy({ id: tenant.guid(), displayName: 'Contractor compliance', targets: [include(contractors)], now }));
  // All devices with an exclude filter (keeps Windows 11 out) and an include filter (lets it in); remediations are read on /beta, where filters show.
  remediation('Windows 10 clean-up', [{ kind: 'allDevices', filter: { mode: 'exclude', id: String(filter.id) } }]);
  remediation('Windows 11 start menu repair', [{ kind: 'allDevices', filter: { mode: 'include', id: String(filter.id) } }]);
  // Apps with each intent, through the chain and All users.
  const app = (displayName: string, targets: Array<Target & { intent: 'required' | 'available' | 'uninstall' }>) =>
    tenant.add('mobileApps', records.mobileApp({ id: tenant.guid(), displayName, publisher: 'Contoso', targets, now }));
  app('Sales CRM', [{ ...include(regional), intent: 'required' }]);
  app('Sales Toolkit', [{ ...include(sales), intent: 'available' }]);
  app('Legacy Sales Dialer', [{ ...include(salesEmea), intent: 'uninstall' }]);

  // Platforms: each of these reaches CONTOSO-0040 through its primary user, and none is for Windows
  // (docs/finding-rules.md, "What applies", "Platforms"): an iOS app, a macOS settings catalog policy
  // and an Android compliance policy are "not for this platform" there, and say their platform to a user.
  tenant.add(
    'mobileApps',
    records.mobileApp({
      id: tenant.guid(),
      displayName: 'Sales CRM for iPhone',
      publisher: 'Contoso',
      odataType: '#microsoft.graph.iosStoreApp',
      targets: [{ ...include(regional), intent: 'required' }],
      now,
    }),
  );
  const macPolicy = plantConfigurationPolicy(tenant, { name: 'Sales Mac FileVault', templateFamily: 'none', settings: [], targets: [include(sales)] });
  const macRecord = tenant.records('configurationPolicies').find((record) => record.id === macPolicy);
  if (macRecord) (macRecord as Record<string, unknown>).platforms = 'macOS';
  tenant.add(
    'deviceCompliancePolicies',
    records.deviceCompliancePolicy({
      id: tenant.guid(),
      displayName: 'Sales Android compliance',
      odataType: '#microsoft.graph.androidWorkProfileCompliancePolicy',
      targets: [include(regional)],
      now,
    }),
  );

  // Filter modes (learn.microsoft.com/mem/intune/fundamentals/filters-reports-troubleshoot, "Filter
  // mode"): an exclude filter wins over an assignment with no filter, and two include filters are
  // ORed. CONTOSO-0040 runs Windows 11 (osVersion 10.0.22…), which no demo device's manufacturer makes "Lab".
  const lab = records.assignmentFilter({ id: tenant.guid(), displayName: 'Lab devices', platform: 'windows10AndLater', rule: '(device.manufacturer -eq "Contoso Lab")', now });
  tenant.add('assignmentFilters', lab);
  remediation('Windows 10 tidy-up', [include(regional), { kind: 'allDevices', filter: { mode: 'exclude', id: String(filter.id) } }]);
  remediation('Windows 11 or lab diagnostics', [
    { ...include(regional), filter: { mode: 'include', id: String(lab.id) } },
    { kind: 'allDevices', filter: { mode: 'include', id: String(filter.id) } },
  ]);

  // Conflicting intents (learn.microsoft.com/mem/intune/apps/apps-deploy, "How conflicts between app
  // intents are resolved"): Required beats Uninstall; Required beside Available is "Required and Available".
  app('Contoso Softphone', [
    { ...include(salesEmea), intent: 'uninstall' },
    { ...include(regional), intent: 'required' },
  ]);
  app('Sales Analytics', [
    { ...include(sales), intent: 'available' },
    { ...include(regional), intent: 'required' },
  ]);

  // Mixed groups (learn.microsoft.com/intune/device-configuration/assign-device-profile, "Exclude
  // groups from a policy assignment"): a user-group exclusion does not take a device out of an All
  // devices assignment, nor a device-group exclusion a user out of a user-group one.
  const kiosks = tenant.addGroup({ displayName: 'Kiosk devices', deviceIds: [tenant.guid(), tenant.guid()] });
  configuration('Device firewall rules', [{ kind: 'allDevices' }, { kind: 'exclude', groupId: vpnExclusions }]);
  configuration('Sales printers', [include(regional), { kind: 'exclude', groupId: kiosks }]);

  // Hidden membership: its members are not listed to this app, so whether it excludes anyone is unknown.
  const board = tenant.addGroup({ displayName: 'Board members', userIds: [users[40]!], visibility: 'HiddenMembership' });
  configuration('Regional file shares', [include(regional), { kind: 'exclude', groupId: board }]);

  // Object types only beta has (docs/finding-rules.md, "What applies", "Object types"), each for
  // the platform Microsoft documents: an Administrative Template (Windows, administrative-templates-windows),
  // a macOS shell script (the deviceShellScript resource: "enrolled Mac OS devices"), a Windows
  // feature update profile, an intent whose template is for Windows 10 and later (its template's
  // platformType), and a settings catalog compliance policy for Linux (its `platforms`).
  const { types } = APPLIES_DEMO;
  tenant.add('groupPolicyConfigurations', records.groupPolicyConfiguration({ id: tenant.guid(), displayName: types.administrativeTemplate, targets: [include(regional)], now }));
  tenant.add('deviceShellScripts', records.deviceShellScript({ id: tenant.guid(), displayName: types.macOSShellScript, targets: [{ kind: 'allDevices' }], now }));
  tenant.add(
    'windowsFeatureUpdateProfiles',
    records.windowsFeatureUpdateProfile({
      id: tenant.guid(),
      displayName: types.featureUpdate,
      featureUpdateVersion: 'Windows 11, version 24H2',
      targets: [include(regional)],
      now,
    }),
  );
  // An endpoint security template (templateType `securityTemplate`, subtype `antivirus`: not a baseline, so not
  // report 3's), for Windows 10 and later (deviceManagementTemplate, beta: `platformType`).
  const antivirusTemplate = tenant.guid();
  tenant.add(
    'templates',
    asDemoRecord({
      '@odata.type': '#microsoft.graph.deviceManagementTemplate',
      id: antivirusTemplate,
      displayName: 'Microsoft Defender Antivirus',
      description: '',
      versionInfo: '1',
      isDeprecated: false,
      intentCount: 1,
      templateType: 'securityTemplate',
      platformType: 'windows10AndLater',
      templateSubtype: 'antivirus',
      publishedDateTime: '2020-06-01T00:00:00Z',
    } satisfies Beta.DeviceManagementTemplate & { '@odata.type': string }),
  );
  const intentId = tenant.guid();
  tenant.add(
    'intents',
    asDemoRecord({
      id: intentId,
      displayName: types.intent,
      description: '',
      isAssigned: true,
      isMigratingToConfigurationPolicy: false,
      lastModifiedDateTime: now.toISOString(),
      templateId: antivirusTemplate,
      roleScopeTagIds: ['0'],
      assignments: records.intentAssignments(intentId, [include(regional)]),
    } satisfies Beta.DeviceManagementIntent),
  );
  tenant.add(
    'compliancePolicies',
    records.deviceManagementCompliancePolicy({ id: tenant.guid(), name: types.linuxCompliance, platforms: 'linux', targets: [include(regional)], now }),
  );

  // Filters hidden by /v1.0 (docs/finding-rules.md, "What applies", "Filters on /v1.0 objects"):
  // a profile /v1.0 lists without its targets' filters, whose assignment beta shows with an exclude
  // filter CONTOSO-0040 (Windows 11) matches, so it is excluded once read again on beta.
  configuration(APPLIES_DEMO.v1ExcludeFilter, [{ ...include(regional), filter: { mode: 'exclude', id: String(filter.id) } }]);
  // Device groups: CONTOSO-0040's Entra device in Lobby PCs, nested in Managed PCs. Which groups a
  // device is in is read through its Entra device (learn.microsoft.com/graph/api/device-list-transitivememberof),
  // with Device.Read.All only, which the demo grants (`--deny Device.Read.All` takes it): unknown without it.
  const pc = tenant.records('managedDevices').find((device) => device.deviceName === APPLIES_DEMO.device);
  const entraDevice = tenant.addEntraDevice({ deviceId: String(pc?.azureADDeviceId), displayName: APPLIES_DEMO.device });
  const lobby = tenant.addGroup({ displayName: 'Lobby PCs', deviceIds: [entraDevice, tenant.guid()] });
  const managedPcs = tenant.addGroup({ displayName: 'Managed PCs', groupIds: [lobby] });
  configuration(APPLIES_DEMO.deviceGroups.object, [include(managedPcs)]);
  app(APPLIES_DEMO.deviceGroups.app, [{ ...include(lobby), intent: 'required' }]);
  // Every other managed device registered in Entra ID has its Entra device object too, as in a
  // tenant: the managed device's `azureADDeviceId` is that object's `deviceId`
  // (learn.microsoft.com/graph/api/resources/intune-devices-manageddevice). A device with none (report
  // 4's unregistered one) has no object. Last, so no id drawn above moves.
  const registered = new Set([String(pc?.azureADDeviceId).toLowerCase()]);
  for (const device of tenant.records('managedDevices')) {
    const deviceId = typeof device.azureADDeviceId === 'string' ? device.azureADDeviceId : '';
    if (!/^[0-9a-f-]{36}$/i.test(deviceId) || /^0{8}-/.test(deviceId) || registered.has(deviceId.toLowerCase())) continue;
    registered.add(deviceId.toLowerCase());
    tenant.addEntraDevice({ deviceId, displayName: String(device.deviceName ?? deviceId) });
  }
}
