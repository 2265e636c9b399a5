import * as records from './records.js';
import { ZERO_GUID, daysAgo, daysFromNow, hoursAgo } from './records.js';
import type { StartupTimes, Target } from './records.js';
import { pick, seededGuid, seededRandom } from './seeded-random.js';
import { emptyCollections } from './sim-tenant.js';
import type { DeclaredFinding, GraphRecord, SimGroup, SimTenant } from './sim-tenant.js';

/** Every application permission the six reports need, as Entra issues the role values. */
export const DEMO_GRANTED_ROLES = [
  'DeviceManagementServiceConfig.Read.All',
  'DeviceManagementConfiguration.Read.All',
  'DeviceManagementApps.Read.All',
  'DeviceManagementScripts.Read.All',
  'Group.Read.All',
  'DeviceLocalCredential.ReadBasic.All',
  'BitlockerKey.ReadBasic.All',
  'DeviceManagementManagedDevices.Read.All',
  'DeviceManagementRBAC.Read.All',
];

export interface DemoTenantOptions {
  seed?: number;
  /** Ages are relative to this instant (connector staleness, request windows). */
  now?: Date;
}

/**
 * "Contoso (demo)": a few hundred devices in which every finding of every report occurs, next to
 * look-alikes that must not be findings (a warn-mode ASR rule, an unconfigured firewall profile,
 * a policy assigned to one deleted and one live group, a baseline on the newest version). Each
 * finding the scenario plants is declared, so tests can compare what the reports find with it.
 */
export function buildDemoTenant(options: DemoTenantOptions = {}): SimTenant {
  const random = seededRandom(options.seed ?? 20261121);
  const now = options.now ?? new Date();
  const guid = () => seededGuid(random);
  const collections = emptyCollections();
  const singletons: SimTenant['singletons'] = {};
  const groups = new Map<string, SimGroup>();
  const declared: DeclaredFinding[] = [];
  const declare = (report: DeclaredFinding['report'], kind: string, subjectId: string, coverage?: DeclaredFinding['coverage']) =>
    declared.push({ report, kind, subjectId, ...(coverage ? { coverage } : {}) });

  // ---- groups ------------------------------------------------------------------------------
  const users = Array.from({ length: 60 }, () => guid());
  const group = (displayName: string, memberCount: number): string => {
    const id = guid();
    groups.set(id, { id, displayName, members: users.slice(0, memberCount).map((member) => ({ id: member, type: 'user' })) });
    return id;
  };
  const allStaff = group('All Staff', 60);
  const pilot = group('Windows Pilot Ring', 12);
  const finance = group('Finance Devices', 25);
  const kioskExclusions = group('Kiosk Exclusions', 4);
  const helpdeskLeads = group('Helpdesk Leads', 3);
  const emptyGroup = group('Android Legacy Users', 0);
  const emptyApprovers = group('Script Approvers', 0);
  // Referenced by assignments but gone from the directory.
  const deletedGroup = guid();
  const retiredGroup = guid();

  // ---- report 1: connectors ----------------------------------------------------------------
  const ndes = [
    { name: 'NDES-CONNECTOR-01', state: 'active' as const, last: hoursAgo(now, 2) },
    { name: 'NDES-CONNECTOR-02', state: 'active' as const, last: hoursAgo(now, 36) },
    { name: 'NDES-CONNECTOR-03', state: 'inactive' as const, last: daysAgo(now, 5) },
  ].map((connector) =>
    records.ndesConnector({
      id: guid(),
      displayName: connector.name,
      machineName: `${connector.name.toLowerCase()}.contoso.local`,
      state: connector.state,
      lastConnectionDateTime: connector.last,
      now,
    }),
  );
  collections.ndesConnectors = ndes;
  declare('connector-health', 'connector-unhealthy', ndes[2]!.id);

  const defender = records.mobileThreatDefenseConnector({
    id: 'fc780465-2017-40d4-a0c5-307022471b92',
    partnerState: 'enabled',
    lastHeartbeatDateTime: hoursAgo(now, 1),
    partnerUnresponsivenessThresholdInDays: 7,
    now,
  });
  const lookout = records.mobileThreatDefenseConnector({
    id: '2c7790de-8b02-4814-85cf-e0c59380dee8',
    partnerState: 'unresponsive',
    lastHeartbeatDateTime: daysAgo(now, 8),
    partnerUnresponsivenessThresholdInDays: 7,
    now,
  });
  const zimperium = records.mobileThreatDefenseConnector({
    id: '08a8455c-48dd-45ff-ad82-7211355354f3',
    partnerState: 'available',
    lastHeartbeatDateTime: hoursAgo(now, 3),
    partnerUnresponsivenessThresholdInDays: 7,
    now,
  });
  collections.mobileThreatDefenseConnectors = [defender, lookout, zimperium];
  declare('connector-health', 'connector-unhealthy', lookout.id);

  const jamf = records.deviceManagementPartner({ id: guid(), displayName: 'Jamf Pro', isConfigured: true, partnerState: 'enabled', lastHeartbeatDateTime: hoursAgo(now, 4) });
  const workspaceOne = records.deviceManagementPartner({
    id: guid(),
    displayName: 'VMware Workspace ONE',
    isConfigured: false,
    partnerState: 'unknown',
    lastHeartbeatDateTime: '0001-01-01T00:00:00Z',
  });
  const mobileIron = records.deviceManagementPartner({
    id: guid(),
    displayName: 'MobileIron',
    isConfigured: true,
    partnerState: 'unresponsive',
    lastHeartbeatDateTime: daysAgo(now, 10),
    whenPartnerDevicesWillBeMarkedAsNonCompliantDateTime: daysFromNow(now, 4),
  });
  collections.deviceManagementPartners = [jamf, workspaceOne, mobileIron];
  declare('connector-health', 'connector-unhealthy', mobileIron.id);

  const googlePlay = records.androidManagedStoreSettings({
    id: 'androidManagedStoreAccountEnterpriseSettings',
    bindStatus: 'boundAndValidated',
    lastAppSyncStatus: 'credentialsNotValid',
    lastAppSyncDateTime: daysAgo(now, 4),
    now,
  });
  singletons.androidManagedStoreAccountEnterpriseSettings = googlePlay;
  declare('connector-health', 'connector-unhealthy', googlePlay.id);
  singletons.windowsAutopilotSettings = records.windowsAutopilotSettings({ lastSyncDateTime: hoursAgo(now, 6), syncStatus: 'completed', now });

  // ---- report 2: assignment hygiene (and the objects report 3 inspects) ---------------------
  // `beta`: an object of a type /v1.0 leaves out (src/sim/v1-schema.ts), found only on /beta.
  const hygiene = (kind: string, id: string, coverage?: 'beta') => declare('assignment-hygiene', kind, id, coverage);
  const configuration = (displayName: string, targets: Target[], odataType?: string) => {
    const item = records.deviceConfiguration({ id: guid(), displayName, targets, now, ...(odataType ? { odataType } : {}) });
    collections.deviceConfigurations.push(item);
    return item.id;
  };
  configuration('Windows - Wi-Fi (Corp)', [{ kind: 'include', groupId: allStaff }], '#microsoft.graph.windowsWifiConfiguration');
  hygiene('unassigned', configuration('Windows - Legacy VPN', [], '#microsoft.graph.windows10VpnConfiguration'), 'beta');
  hygiene(
    'assigned-to-missing-or-empty-groups',
    configuration('iOS - Exchange email', [{ kind: 'include', groupId: deletedGroup }], '#microsoft.graph.iosEasEmailProfileConfiguration'),
    'beta',
  );
  hygiene('exclusions-only', configuration('Windows - Kiosk lockdown', [{ kind: 'exclude', groupId: kioskExclusions }]));
  hygiene(
    'all-users-and-all-devices',
    configuration('Windows - Endpoint protection (legacy)', [{ kind: 'allUsers' }, { kind: 'allDevices' }], '#microsoft.graph.windows10EndpointProtectionConfiguration'),
  );
  // One deleted group beside one live group still reaches people: not a finding.
  configuration('Windows - Finance printers', [
    { kind: 'include', groupId: deletedGroup },
    { kind: 'include', groupId: finance },
  ]);
  // A ConfigMgr collection cannot be resolved, so it never makes a finding.
  configuration('Windows - Co-managed update ring', [{ kind: 'configMgrCollection', collectionId: 'SMS00001' }]);
  for (const name of ['Windows - Device restrictions', 'Windows - Delivery optimisation', 'macOS - FileVault', 'iOS - Device restrictions', 'Android - Work profile']) {
    configuration(name, [
      { kind: 'include', groupId: pick(random, [allStaff, pilot, finance]) },
      { kind: 'exclude', groupId: kioskExclusions },
    ]);
  }

  const compliance = (displayName: string, targets: Target[], odataType?: string) => {
    const item = records.deviceCompliancePolicy({ id: guid(), displayName, targets, now, ...(odataType ? { odataType } : {}) });
    collections.deviceCompliancePolicies.push(item);
    return item.id;
  };
  compliance('Windows - Compliance', [{ kind: 'allDevices' }]);
  hygiene(
    'assigned-to-missing-or-empty-groups',
    compliance('Android - Compliance (legacy)', [{ kind: 'include', groupId: emptyGroup }], '#microsoft.graph.androidCompliancePolicy'),
  );
  hygiene('unassigned', compliance('macOS - Compliance', [], '#microsoft.graph.macOSCompliancePolicy'));
  compliance('iOS - Compliance', [{ kind: 'allUsers' }], '#microsoft.graph.iosCompliancePolicy');

  const settingsPolicy = (value: Omit<Parameters<typeof records.configurationPolicy>[0], 'id' | 'now'>) => {
    const item = records.configurationPolicy({ id: guid(), now, ...value });
    collections.configurationPolicies.push(item);
    return item.id;
  };
  const posture = (kind: string, id: string) => declare('security-posture', kind, id);
  const asrPolicy = (name: string, rules: Parameters<typeof records.asrRulesSetting>[0], targets: Target[]) =>
    settingsPolicy({
      name,
      templateFamily: 'endpointSecurityAttackSurfaceReduction',
      templateId: 'e8c053d6-9f95-42b1-a7f1-ebfd71c67a4b_1',
      templateDisplayName: 'Attack Surface Reduction Rules',
      technologies: 'mdm,microsoftSense',
      settings: [records.asrRulesSetting(rules)],
      targets,
    });
  const firewallPolicy = (name: string, profiles: Partial<Record<'domain' | 'private' | 'public', 'true' | 'false'>>, targets: Target[]) =>
    settingsPolicy({
      name,
      templateFamily: 'endpointSecurityFirewall',
      templateId: '6078910e-d808-4a9f-a51d-1b8a7bacb7c0_1',
      templateDisplayName: 'Windows Firewall',
      settings: Object.entries(profiles).map(([profile, value]) => records.choiceSetting(`vendor_msft_firewall_mdmstore_${profile}profile_enablefirewall`, value)),
      targets,
    });
  const windowsBaseline = (name: string, version: number, displayVersion: string, targets: Target[]) =>
    settingsPolicy({
      name,
      templateFamily: 'baseline',
      templateId: `66df8dce-0166-4b82-92f7-1f74e3ca17a3_${version}`,
      templateDisplayName: 'Security Baseline for Windows 10 and later',
      templateDisplayVersion: displayVersion,
      settings: [],
      targets,
    });

  posture(
    'asr-rule-audit',
    asrPolicy(
      'ASR - Standard protection',
      {
        blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem: 'block',
        blockpersistencethroughwmieventsubscription: 'audit',
        blockabuseofexploitedvulnerablesigneddrivers: 'audit',
      },
      [{ kind: 'include', groupId: allStaff }],
    ),
  );
  // Warn is a block with a user bypass: enforcing, so shown but not a finding.
  asrPolicy(
    'ASR - Office rules',
    {
      blockallofficeapplicationsfromcreatingchildprocesses: 'block',
      blockofficeapplicationsfromcreatingexecutablecontent: 'block',
      blockwin32apicallsfromofficemacros: 'warn',
    },
    [{ kind: 'include', groupId: pilot }],
  );
  posture('firewall-profile-off', firewallPolicy('Firewall - Corporate', { domain: 'true', private: 'true', public: 'false' }, [{ kind: 'allDevices' }]));
  // Only the domain profile is configured; the others are left to the device, which is not "off".
  firewallPolicy('Firewall - Lab', { domain: 'true' }, [{ kind: 'include', groupId: pilot }]);
  posture('baseline-outdated', windowsBaseline('Security baseline for Windows (23H2)', 3, 'Version 23H2', [{ kind: 'include', groupId: finance }]));
  windowsBaseline('Security baseline for Windows (24H2)', 4, 'Version 24H2', [{ kind: 'include', groupId: allStaff }]);
  hygiene('unassigned', settingsPolicy({ name: 'Edge - Sync settings', templateFamily: 'none', settings: [], targets: [] }));
  settingsPolicy({ name: 'OneDrive - Known folder move', templateFamily: 'none', settings: [], targets: [{ kind: 'include', groupId: allStaff }] });

  const app = (displayName: string, publisher: string, targets: Array<Target & { intent?: 'required' | 'available' | 'uninstall' }>, odataType?: string) => {
    const item = records.mobileApp({ id: guid(), displayName, publisher, targets, now, ...(odataType ? { odataType } : {}) });
    collections.mobileApps.push(item);
    return item.id;
  };
  app('Company Portal', 'Microsoft Corporation', [{ kind: 'allUsers', intent: 'required' }], '#microsoft.graph.winGetApp');
  hygiene('exclusions-only', app('Contoso Expenses', 'Contoso', [{ kind: 'exclude', groupId: kioskExclusions, intent: 'available' }]));
  hygiene(
    'all-users-and-all-devices',
    app(
      'Microsoft Teams',
      'Microsoft Corporation',
      [
        { kind: 'allDevices', intent: 'required' },
        { kind: 'allUsers', intent: 'available' },
      ],
      '#microsoft.graph.winGetApp',
    ),
    'beta',
  );
  hygiene('unassigned', app('Legacy PDF Reader', 'Example Software', []));
  app('7-Zip', 'Igor Pavlov', [{ kind: 'include', groupId: pilot, intent: 'available' }]);
  app('Finance Reporting Add-in', 'Contoso', [{ kind: 'include', groupId: finance, intent: 'required' }]);

  const script = (displayName: string, targets: Target[]) => {
    const item = records.deviceManagementScript({ id: guid(), displayName, targets, now });
    collections.deviceManagementScripts.push(item);
    return item.id;
  };
  script('Set time zone', [{ kind: 'include', groupId: allStaff }]);
  hygiene('assigned-to-missing-or-empty-groups', script('Clean up temp folders', [{ kind: 'include', groupId: retiredGroup }]));

  const remediation = (displayName: string, targets: Target[]) => {
    const item = records.deviceHealthScript({ id: guid(), displayName, targets, now });
    collections.deviceHealthScripts.push(item);
    return item.id;
  };
  remediation('Restart stopped services', [{ kind: 'allDevices' }]);
  hygiene('unassigned', remediation('Clear Teams cache', []));

  // ---- report 3: legacy baselines -----------------------------------------------------------
  const template = (value: Omit<Parameters<typeof records.deviceManagementTemplate>[0], 'id'>) => {
    const item = records.deviceManagementTemplate({ id: guid(), ...value });
    collections.templates.push(item);
    return item.id;
  };
  const mdm2020 = template({
    displayName: 'MDM Security Baseline for Windows 10 and later for August 2020',
    templateType: 'securityBaseline',
    versionInfo: 'August 2020',
    publishedDateTime: '2020-08-17T00:00:00Z',
    isDeprecated: false,
  });
  const mdm2021 = template({
    displayName: 'MDM Security Baseline for Windows 10 and later for November 2021',
    templateType: 'securityBaseline',
    versionInfo: 'November 2021',
    publishedDateTime: '2021-11-15T00:00:00Z',
    isDeprecated: false,
  });
  const defenderV5 = template({
    displayName: 'Microsoft Defender for Endpoint baseline',
    templateType: 'advancedThreatProtectionSecurityBaseline',
    versionInfo: 'Version 5',
    publishedDateTime: '2020-09-01T00:00:00Z',
    isDeprecated: true,
  });
  template({
    displayName: 'Microsoft Defender for Endpoint baseline',
    templateType: 'advancedThreatProtectionSecurityBaseline',
    versionInfo: 'Version 6',
    publishedDateTime: '2021-12-01T00:00:00Z',
    isDeprecated: false,
  });
  const edge = template({
    displayName: 'Microsoft Edge baseline',
    templateType: 'microsoftEdgeSecurityBaseline',
    versionInfo: 'September 2020',
    publishedDateTime: '2020-09-15T00:00:00Z',
    isDeprecated: false,
  });
  const intent = (displayName: string, templateId: string) => {
    const item = records.deviceManagementIntent({ id: guid(), displayName, templateId, now });
    collections.intents.push(item);
    return item.id;
  };
  posture('baseline-outdated', intent('Windows baseline (2020)', mdm2020));
  intent('Windows baseline (2021)', mdm2021);
  posture('baseline-outdated', intent('Defender for Endpoint baseline (v5)', defenderV5));
  intent('Edge baseline', edge);

  // ---- report 4: devices and escrow ---------------------------------------------------------
  const windowsModels = [
    ['Latitude 7440', 'Dell Inc.'],
    ['EliteBook 840 G10', 'HP'],
    ['ThinkPad T14 Gen 4', 'LENOVO'],
    ['Surface Laptop 5', 'Microsoft Corporation'],
    ['OptiPlex 7010', 'Dell Inc.'],
  ] as const;
  const escrow = (kind: string, id: string) => declare('escrow-gaps', kind, id);
  const windowsDevices: Array<{ device: GraphRecord; model: string; manufacturer: string }> = [];
  const addDevice = (index: number, operatingSystem: string, entraDeviceId: string | null, model: string, manufacturer: string, joinType?: 'hybridAzureADJoined'): GraphRecord => {
    const id = guid();
    const device = records.managedDevice({
      ...(joinType ? { joinType } : {}),
      id,
      deviceName: operatingSystem.toLowerCase() === 'windows' ? `CONTOSO-${String(index).padStart(4, '0')}` : `${operatingSystem}-${index}`,
      operatingSystem,
      osVersion: operatingSystem.toLowerCase() === 'windows' ? '10.0.22631.4460' : '17.6',
      azureADDeviceId: entraDeviceId,
      userPrincipalName: `user${index % users.length}@contoso-demo.example`,
      model,
      manufacturer,
      lastSyncDateTime: hoursAgo(now, 1 + Math.floor(random() * 240)),
      enrolledDateTime: daysAgo(now, 30 + Math.floor(random() * 700)),
    });
    collections.managedDevices.push(device);
    if (operatingSystem.toLowerCase() === 'windows') windowsDevices.push({ device, model, manufacturer });
    return device;
  };
  const laps = (device: GraphRecord, entraDeviceId: string) =>
    collections.deviceLocalCredentials.push(
      records.deviceLocalCredentialInfo({
        entraDeviceId,
        deviceName: String(device.deviceName),
        lastBackupDateTime: daysAgo(now, Math.floor(random() * 20)),
        refreshDateTime: daysFromNow(now, 10),
      }),
    );
  const key = (entraDeviceId: string, volumeType: Parameters<typeof records.bitlockerRecoveryKey>[0]['volumeType']) =>
    collections.bitlockerRecoveryKeys.push(records.bitlockerRecoveryKey({ id: guid(), entraDeviceId, createdDateTime: daysAgo(now, Math.floor(random() * 300)), volumeType }));

  for (let index = 1; index <= 240; index += 1) {
    const [model, manufacturer] = pick(random, windowsModels);
    const entraDeviceId = guid();
    const device = addDevice(index, 'Windows', entraDeviceId, model, manufacturer);
    const roll = random();
    // Planted gaps: about 3 % miss both, 5 % miss the key, 10 % miss the LAPS password.
    const missingKey = roll < 0.08;
    const missingLaps = roll < 0.03 || (roll >= 0.08 && roll < 0.18);
    if (missingKey) escrow('missing-recovery-key', device.id);
    else key(entraDeviceId, random() < 0.2 ? 1 : 'operatingSystemVolume');
    if (missingLaps) escrow('missing-laps-password', device.id);
    else laps(device, entraDeviceId);
    // Some devices have extra data-volume keys and re-escrowed OS keys.
    if (random() < 0.15) key(entraDeviceId, 'fixedDataVolume');
  }
  // Special cases the rules call out.
  const unregistered = addDevice(241, 'Windows', ZERO_GUID, 'Latitude 7440', 'Dell Inc.');
  escrow('missing-recovery-key', unregistered.id);
  escrow('missing-laps-password', unregistered.id);
  const noEntraId = addDevice(242, 'Windows', null, 'OptiPlex 7010', 'Dell Inc.');
  escrow('missing-recovery-key', noEntraId.id);
  escrow('missing-laps-password', noEntraId.id);
  const dataOnlyId = guid();
  const dataOnly = addDevice(243, 'Windows', dataOnlyId, 'ThinkPad T14 Gen 4', 'LENOVO');
  key(dataOnlyId, 'fixedDataVolume');
  key(dataOnlyId, 'removableDataVolume');
  laps(dataOnly, dataOnlyId);
  escrow('missing-recovery-key', dataOnly.id);
  const lowerCaseId = guid();
  // Intune's operatingSystem is free text; case must not hide a Windows device.
  const lowerCase = addDevice(244, 'windows', lowerCaseId.toUpperCase(), 'Surface Laptop 5', 'Microsoft Corporation');
  key(lowerCaseId, 'operatingSystemVolume');
  laps(lowerCase, lowerCaseId);
  for (let index = 0; index < 60; index += 1) {
    const platform = pick(random, [
      ['iOS', 'iPhone 15', 'Apple'],
      ['Android', 'Pixel 8', 'Google'],
      ['macOS', 'MacBook Air', 'Apple'],
    ] as const);
    addDevice(300 + index, platform[0], guid(), platform[1], platform[2]);
  }

  // ---- report 5: multi admin approval -------------------------------------------------------
  const maa = (displayName: string, policyType: string, approverGroupIds: string[]) =>
    collections.operationApprovalPolicies.push(records.operationApprovalPolicy({ id: guid(), displayName, policyType, approverGroupIds, now }));
  maa('Device wipe approval', 'deviceWipe', [helpdeskLeads]);
  maa('App deployment approval', 'app', [helpdeskLeads, deletedGroup]);
  // An old policy whose type arrives as "unknown": only its name says it guards scripts.
  maa('PowerShell script approval', 'unknown', [emptyApprovers]);
  declare('admin-approval', 'area-unprotected', 'rbac');
  const statuses = ['needsApproval', 'approved', 'completed', 'rejected', 'cancelled', 'expired', 'completed', 'needsApproval'] as const;
  statuses.forEach((status, index) =>
    collections.operationApprovalRequests.push(
      records.operationApprovalRequest({
        id: guid(),
        requestDateTime: daysAgo(now, index * 3 + 1),
        status,
        requestor: `admin${index % 3}@contoso-demo.example`,
        approver: status === 'needsApproval' || status === 'cancelled' || status === 'expired' ? null : 'lead@contoso-demo.example',
        justification: pick(random, ['Lost device', 'Script update for printers', 'New line-of-business app']),
        policyTypes: [pick(random, ['deviceWipe', 'app', 'script'])],
        now,
      }),
    ),
  );
  collections.operationApprovalRequests.push(
    records.operationApprovalRequest({
      id: guid(),
      requestDateTime: daysAgo(now, 75),
      status: 'completed',
      requestor: 'admin0@contoso-demo.example',
      approver: 'lead@contoso-demo.example',
      justification: 'Old request',
      policyTypes: ['app'],
      now,
    }),
  );

  // ---- report 6: endpoint analytics ---------------------------------------------------------
  const startup = (kind: string, id: string) => declare('startup-reliability', kind, id);
  for (const { device, model, manufacturer } of windowsDevices.slice(0, 200)) {
    const hdd = model === 'OptiPlex 7010' && random() < 0.5;
    const slow = hdd || random() < 0.05;
    const times: StartupTimes = {
      coreBootTimeInMs: Math.round((hdd ? 45_000 : 12_000) + random() * 8_000),
      groupPolicyBootTimeInMs: Math.round(1_000 + random() * 3_000),
      coreLoginTimeInMs: Math.round((slow ? 40_000 : 8_000) + random() * 6_000),
      groupPolicyLoginTimeInMs: Math.round(1_000 + random() * 4_000),
      responsiveDesktopTimeInMs: Math.round((slow ? 45_000 : 6_000) + random() * 10_000),
    };
    const total = Object.values(times).reduce((sum, value) => sum + value, 0);
    const blueScreens = random() < 0.06 ? 1 + Math.floor(random() * 4) : 0;
    const performance = records.devicePerformance({
      id: guid(),
      deviceName: String(device.deviceName),
      model,
      manufacturer,
      diskType: hdd ? 'hdd' : 'ssd',
      times,
      blueScreenCount: blueScreens,
      restartCount: blueScreens + Math.floor(random() * 6),
      startupPerformanceScore: Math.max(5, Math.round(100 - total / 2000)),
    });
    collections.userExperienceAnalyticsDevicePerformance.push(performance);
    if (total > 120_000) startup('slow-startup', performance.id);
    if (blueScreens > 0) startup('blue-screens', performance.id);
  }
  const appHealth = (appName: string, appDisplayName: string, appPublisher: string, crashes: number, hangs: number, mttf: number, score: number) => {
    const item = records.appHealthPerformance({
      id: guid(),
      appName,
      appDisplayName,
      appPublisher,
      appCrashCount: crashes,
      appHangCount: hangs,
      activeDeviceCount: 20 + Math.floor(random() * 180),
      meanTimeToFailureInMinutes: mttf,
      appHealthScore: score,
    });
    collections.userExperienceAnalyticsAppHealthApplicationPerformance.push(item);
    return item.id;
  };
  startup('unreliable-app', appHealth('legacyerp.exe', 'Legacy ERP Client', 'Contoso', 48, 12, 320, 22));
  startup('unreliable-app', appHealth('outlook.exe', 'Outlook', 'Microsoft Corporation', 9, 31, 1100, 61));
  startup('unreliable-app', appHealth('vpnclient.exe', 'VPN Client', 'Example Networks', 0, 7, 900, 70));
  // Crashes spread thinly over long use: failures exist, but not within a day of use on average.
  appHealth('teams.exe', 'Microsoft Teams', 'Microsoft Corporation', 5, 3, 5200, 88);
  appHealth('msedge.exe', 'Microsoft Edge', 'Microsoft Corporation', 0, 0, records.NO_FAILURES_MTTF, 100);
  appHealth('excel.exe', 'Excel', 'Microsoft Corporation', 0, 0, records.NO_FAILURES_MTTF, 100);
  // Scores of -1 mean "not enough data", not zero.
  appHealth('notepad++.exe', 'Notepad++', 'Notepad++ Team', 0, 0, records.NO_FAILURES_MTTF, -1);

  // ---- report 2: what is Microsoft's own (last, so that every id above stays as it was) -------
  // Microsoft's catalogue apps are in every tenant and unassigned by nature: not findings.
  for (const [displayName, odataType] of [
    ['Microsoft Outlook', '#microsoft.graph.managedAndroidStoreApp'],
    ['Microsoft Edge', '#microsoft.graph.managedIOSStoreApp'],
  ] as const) {
    collections.mobileApps.push(records.mobileApp({ id: guid(), displayName, publisher: 'Microsoft Corporation', odataType, appAvailability: 'global', targets: [], now }));
  }
  // Microsoft's own remediation scripts are read-only and unassigned until someone assigns them: not findings.
  collections.deviceHealthScripts.push(records.deviceHealthScript({ id: guid(), displayName: 'Restart Office Click-to-Run service', targets: [], now, isGlobalScript: true }));

  // ---- what /v1.0 cannot show (issue 11, points 3 and 6; also last, to keep the ids above) ------
  // Types only the beta schema has: /v1.0 lists leave them out, so their findings need /beta.
  hygiene(
    'assigned-to-missing-or-empty-groups',
    compliance('AOSP - Compliance (RealWear)', [{ kind: 'include', groupId: retiredGroup }], '#microsoft.graph.aospDeviceOwnerCompliancePolicy'),
    'beta',
  );
  app('Microsoft 365 Apps for enterprise', 'Microsoft Corporation', [{ kind: 'allUsers', intent: 'required' }], '#microsoft.graph.officeSuiteApp');
  // Windows 365 Cloud PCs have no BitLocker: no recovery-key finding, but LAPS still applies.
  const cloudPc = (index: number, withLaps: boolean) => {
    const entraDeviceId = guid();
    const device = addDevice(index, 'Windows', entraDeviceId, 'Cloud PC Enterprise 2vCPU/8GB/128GB', 'Microsoft Corporation');
    if (withLaps) laps(device, entraDeviceId);
    else escrow('missing-laps-password', device.id);
  };
  cloudPc(245, true);
  cloudPc(246, false);
  // Hybrid joined: a key missing from Entra ID may be in on-premises AD. Only /beta gives the join
  // type, so /v1.0 still calls it the High finding and the report says why it cannot tell.
  for (const index of [247, 248]) {
    const entraDeviceId = guid();
    const device = addDevice(index, 'Windows', entraDeviceId, 'OptiPlex 7010', 'Dell Inc.', 'hybridAzureADJoined');
    laps(device, entraDeviceId);
    declare('escrow-gaps', 'missing-recovery-key', device.id, 'v1.0');
    declare('escrow-gaps', 'recovery-key-not-in-entra', device.id, 'beta');
  }
  // A device action access policy (Intune 2508): its type is the family, policySet names the action.
  collections.operationApprovalPolicies.push(
    records.operationApprovalPolicy({
      id: guid(),
      displayName: 'Retire and delete devices',
      policyType: 'deviceAction',
      policySet: { policyType: 'deviceRetire' },
      approverGroupIds: [helpdeskLeads],
      now,
    }),
  );
  const hybridWithKeyId = guid();
  const hybridWithKey = addDevice(249, 'Windows', hybridWithKeyId, 'OptiPlex 7010', 'Dell Inc.', 'hybridAzureADJoined');
  key(hybridWithKeyId, 'operatingSystemVolume');
  laps(hybridWithKey, hybridWithKeyId);

  return {
    tenantId: '8a4f0c52-6d2e-4e91-b7a3-5c1d9e0f2b64',
    displayName: 'Contoso (demo)',
    domain: 'contoso-demo.onmicrosoft.com',
    collections,
    singletons,
    groups,
    grantedRoles: [...DEMO_GRANTED_ROLES],
    declaredFindings: declared,
  };
}
