import { DEMO_GRANTED_ROLES } from './demo-tenant.js';
import { configurationPolicy, daysAgo, daysFromNow, hoursAgo } from '../../core/reports/demo-records.js';
import type { Target } from '../../core/reports/demo-records.js';
import { ZERO_GUID } from '../../core/reports/graph-values.js';
import { operationApprovalPolicy } from '../../core/reports/admin-approval/demo-records.js';
import { deviceCompliancePolicy, deviceConfiguration, deviceHealthScript, deviceManagementScript, mobileApp } from '../../core/reports/assignment-hygiene/demo-records.js';
import { deviceManagementPartner, mobileThreatDefenseConnector, ndesConnector, windowsAutopilotSettings } from '../../core/reports/connector-health/demo-records.js';
import { applePushNotificationCertificate, depOnboardingSetting, domainJoinConnector, vppToken } from '../../core/reports/connector-health/demo-records.js';
import { bitlockerRecoveryKey, deviceLocalCredentialInfo, managedDevice } from '../../core/reports/escrow-gaps/demo-records.js';
import { asrRulesSetting, choiceSetting, deviceManagementIntent, deviceManagementTemplate } from '../../core/reports/security-posture/demo-records.js';
import { baselinePolicyTemplates } from '../../core/reports/security-posture/demo.js';
import { auditEvent } from '../../core/audit-story/demo-records.js';
import { NO_FAILURES_MTTF, appHealthPerformance, devicePerformance } from '../../core/reports/startup-reliability/demo-records.js';
import { GUID_DRAWS, pick, seededGuid, seededRandom } from './seeded-random.js';
import type { SeededRandom } from './seeded-random.js';
import { sameFilterString } from '../odata-query.js';
import { emptyCollections } from './sim-tenant.js';
import type { GeneratedRecords, GraphRecord, SimGroup, SimTenant } from './sim-tenant.js';
import { DEFAULT_SCOPE_TAG_ID } from '../../core/viewer-scope/scope.js';
import { LARGE_TENANT_SCOPE_TAGS, plantViewerScope } from './large-tenant-scope.js';

// The tenant's Intune administrators and scope tags, for the viewer scope's tests and bench (large-tenant-scope.ts).
export { LARGE_TENANT_ADMINISTRATORS, LARGE_TENANT_SCOPE_TAGS, largeTenantAdministrators } from './large-tenant-scope.js';

export interface LargeTenantOptions {
  seed?: number;
  now?: Date;
  /** Managed devices; the other volumes scale with it. 100,000 by default. */
  devices?: number;
  /** Settings catalog policies, when not scaled with the devices (800 at 100,000 devices): report 3's volume. */
  policies?: number;
  /**
   * The device count the groups, profiles, policies, apps and scripts are sized for (the devices by
   * default): held at 100,000 while the devices grow, it shows what grows with the devices alone.
   */
  objectsFor?: number;
  /** Events in Intune's audit log over its year, when not scaled with the devices (100,000 from 100,000 devices on). */
  auditEvents?: number;
}

/**
 * "Northwind (large)": the scale case for benchmarks. 100,000 managed devices (about 75 %
 * Windows) with matching LAPS and BitLocker metadata, about 2,000 policies and profiles, 1,000
 * apps, 5,000 groups and 50,000 endpoint analytics rows, the devices and their records generated
 * rather than held (`generateDevices`). The mix of gaps follows the research
 * notes' suggested shares (an assumption, not a measured distribution). It declares no findings:
 * its job is volume, the demo tenant's is coverage.
 */
export function buildLargeTenant(options: LargeTenantOptions = {}): SimTenant {
  const random = seededRandom(options.seed ?? 7);
  const now = options.now ?? new Date();
  const deviceCount = options.devices ?? 100_000;
  const scale = deviceCount / 100_000;
  const count = (full: number) => Math.max(1, Math.round(full * scale));
  const objectScale = (options.objectsFor ?? deviceCount) / 100_000;
  const objects = (full: number) => Math.max(1, Math.round(full * objectScale));
  const guid = () => seededGuid(random);
  const collections = emptyCollections();

  const groups = new Map<string, SimGroup>();
  const groupIds: string[] = [];
  for (let index = 0; index < objects(5000); index += 1) {
    const id = guid();
    const empty = random() < 0.1;
    const memberCount = empty ? 0 : 1 + Math.floor(random() * 40);
    groups.set(id, { id, displayName: `Group ${index}`, members: Array.from({ length: memberCount }, () => ({ id: guid(), type: random() < 0.7 ? 'user' : 'device' })) });
    groupIds.push(id);
  }
  const deletedGroupIds = Array.from({ length: objects(100) }, () => guid());
  const randomTargets = (): Target[] => {
    const roll = random();
    if (roll < 0.08) return [];
    if (roll < 0.11) return [{ kind: 'exclude', groupId: pick(random, groupIds) }];
    if (roll < 0.13) return [{ kind: 'allUsers' }, { kind: 'allDevices' }];
    if (roll < 0.16) return [{ kind: 'include', groupId: pick(random, deletedGroupIds) }];
    const targets: Target[] = Array.from({ length: 1 + Math.floor(random() * 3) }, () => ({ kind: 'include', groupId: pick(random, groupIds) }));
    if (random() < 0.3) targets.push({ kind: 'exclude', groupId: pick(random, groupIds) });
    if (random() < 0.1) targets.push({ kind: pick(random, ['allUsers', 'allDevices'] as const) });
    return targets;
  };

  for (let index = 0; index < objects(600); index += 1)
    collections.deviceConfigurations.push(deviceConfiguration({ id: guid(), displayName: `Profile ${index}`, targets: randomTargets(), now }));
  // The conflicts devices reported between pairs of those profiles (report 7), drawing nothing, so
  // that every other record stays as the seed made it; each id is the pair's ids sorted and joined
  // by an underscore, as Graph makes it (deviceConfigurationConflictSummary, beta). Every other
  // pair sets the password's minimum length differently, so report 7 predicts it too (confirmed);
  // the rest name the camera, which neither profile sets as read (reported, not predicted); and the
  // pair after them sets the password's expiry differently, which devices have not reported yet.
  const pairs = Math.min(Math.floor(collections.deviceConfigurations.length / 2), objects(20));
  for (let index = 0; index < 2 * pairs; index += 2) {
    const pair = collections.deviceConfigurations.slice(index, index + 2).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const predicted = (index / 2) % 2 === 0;
    if (predicted) pair.forEach((profile, place) => Object.assign(profile, { passwordMinimumLength: place === 0 ? 8 : 12 }));
    collections.deviceConfigurationConflictSummary.push({
      '@odata.type': '#microsoft.graph.deviceConfigurationConflictSummary',
      id: pair.map((profile) => profile.id).join('_'),
      conflictingDeviceConfigurations: pair.map((profile) => ({ id: profile.id, displayName: profile.displayName, sourceType: 'deviceConfiguration' })),
      contributingSettings: [predicted ? 'passwordMinimumLength' : 'cameraBlocked'],
      deviceCheckinsImpacted: index + 1,
    });
  }
  collections.deviceConfigurations.slice(2 * pairs, 2 * pairs + 2).forEach((profile, place) => Object.assign(profile, { passwordExpirationDays: place === 0 ? 30 : 90 }));
  for (let index = 0; index < objects(200); index += 1)
    collections.deviceCompliancePolicies.push(deviceCompliancePolicy({ id: guid(), displayName: `Compliance ${index}`, targets: randomTargets(), now }));
  const modes = ['block', 'block', 'audit', 'warn', 'off'] as const;
  for (let index = 0; index < (options.policies ?? objects(800)); index += 1) {
    const family = pick(random, ['none', 'none', 'endpointSecurityAttackSurfaceReduction', 'endpointSecurityFirewall', 'baseline'] as const);
    const settings =
      family === 'endpointSecurityAttackSurfaceReduction'
        ? [asrRulesSetting({ blockpersistencethroughwmieventsubscription: pick(random, modes), blockexecutionofpotentiallyobfuscatedscripts: pick(random, modes) })]
        : family === 'endpointSecurityFirewall'
          ? (['domain', 'private', 'public'] as const).map((profile) =>
              choiceSetting(`vendor_msft_firewall_mdmstore_${profile}profile_enablefirewall`, random() < 0.1 ? 'false' : 'true'),
            )
          : [];
    collections.configurationPolicies.push(
      configurationPolicy({
        id: guid(),
        name: `Policy ${index}`,
        templateFamily: family,
        ...(family === 'baseline'
          ? { templateId: `66df8dce-0166-4b82-92f7-1f74e3ca17a3_${1 + Math.floor(random() * 4)}`, templateDisplayName: 'Security Baseline for Windows 10 and later' }
          : {}),
        settings,
        targets: randomTargets(),
        now,
      }),
    );
  }
  for (let index = 0; index < objects(200); index += 1)
    collections.deviceManagementScripts.push(deviceManagementScript({ id: guid(), displayName: `Script ${index}`, targets: randomTargets(), now }));
  for (let index = 0; index < objects(200); index += 1)
    collections.deviceHealthScripts.push(deviceHealthScript({ id: guid(), displayName: `Remediation ${index}`, targets: randomTargets(), now }));
  for (let index = 0; index < objects(1000); index += 1) {
    collections.mobileApps.push(
      mobileApp({
        id: guid(),
        displayName: `App ${index}`,
        publisher: 'Northwind',
        targets: randomTargets().map((target) => ({ ...target, intent: pick(random, ['required', 'available'] as const) })),
        now,
      }),
    );
  }

  const baselineTemplate = deviceManagementTemplate({
    id: guid(),
    displayName: 'MDM Security Baseline',
    templateType: 'securityBaseline',
    versionInfo: 'November 2021',
    publishedDateTime: '2021-11-15T00:00:00Z',
    isDeprecated: false,
  });
  collections.templates.push(baselineTemplate);
  // Graph lists the same settings catalog baseline templates for every tenant: what makes a baseline current or outdated.
  collections.configurationPolicyTemplates.push(...baselinePolicyTemplates());
  for (let index = 0; index < objects(40); index += 1)
    collections.intents.push(deviceManagementIntent({ id: guid(), displayName: `Baseline ${index}`, templateId: baselineTemplate.id, now }));

  collections.ndesConnectors = [
    ndesConnector({ id: guid(), displayName: 'NDES-01', machineName: 'ndes-01.northwind.local', state: 'active', lastConnectionDateTime: hoursAgo(now, 1), now }),
  ];
  collections.mobileThreatDefenseConnectors = [
    mobileThreatDefenseConnector({
      id: 'fc780465-2017-40d4-a0c5-307022471b92',
      partnerState: 'enabled',
      lastHeartbeatDateTime: hoursAgo(now, 2),
      partnerUnresponsivenessThresholdInDays: 7,
      now,
    }),
  ];
  collections.deviceManagementPartners = [
    deviceManagementPartner({ id: guid(), displayName: 'Jamf Pro', isConfigured: true, partnerState: 'enabled', lastHeartbeatDateTime: hoursAgo(now, 5) }),
  ];

  // The devices and what hangs off them are made on demand; their primary users come with the applies cases below.
  const deviceUserIds: string[] = [];
  const generated = generateDevices({ random, now, deviceCount, performanceRows: count(50_000), userIds: deviceUserIds });
  for (let index = 0; index < count(2000); index += 1) {
    const crashes = random() < 0.3 ? Math.floor(random() * 50) : 0;
    const hangs = random() < 0.3 ? Math.floor(random() * 20) : 0;
    collections.userExperienceAnalyticsAppHealthApplicationPerformance.push(
      appHealthPerformance({
        id: guid(),
        appName: `app${index}.exe`,
        appDisplayName: `App ${index}`,
        appPublisher: 'Northwind',
        appCrashCount: crashes,
        appHangCount: hangs,
        activeDeviceCount: 1 + Math.floor(random() * 5000),
        meanTimeToFailureInMinutes: crashes + hangs === 0 ? NO_FAILURES_MTTF : Math.floor(100 + random() * 10_000),
        appHealthScore: Math.floor(random() * 100),
      }),
    );
  }
  // One access policy per protectable resource but roles (docs/finding-rules.md, report 5): one finding.
  for (const policyType of ['deviceWipe', 'script', 'deviceRetire', 'deviceDelete', 'app', 'compliancePolicy', 'configurationPolicy', 'tenantConfiguration']) {
    collections.operationApprovalPolicies.push(
      operationApprovalPolicy({ id: guid(), displayName: `${policyType} approval`, policyType, approverGroupIds: [pick(random, groupIds)], now }),
    );
  }

  // Report 1's Apple tokens and connector for Active Directory, all working: ids after every other draw.
  collections.depOnboardingSettings.push(
    depOnboardingSetting({ id: guid(), tokenName: 'Northwind iPhones', tokenExpirationDateTime: daysFromNow(now, 200), lastSuccessfulSyncDateTime: hoursAgo(now, 4), now }),
  );
  collections.vppTokens.push(
    vppToken({
      id: guid(),
      organizationName: 'Northwind',
      locationName: 'Headquarters',
      state: 'valid',
      expirationDateTime: daysFromNow(now, 250),
      lastSyncDateTime: hoursAgo(now, 5),
      lastSyncStatus: 'completed',
      now,
    }),
  );
  collections.domainJoinConnectors.push(
    domainJoinConnector({ id: guid(), displayName: 'NW-ODJ-01', state: 'active', version: '6.2504.2001.8', lastConnectionDateTime: hoursAgo(now, 0.1) }),
  );
  const applePush = applePushNotificationCertificate({ id: guid(), appleIdentifier: 'mdm@northwind-large.example', expirationDateTime: daysFromNow(now, 180), now });
  addAppliesCases({ collections, groups, deviceCount, deviceUserIds, now, seed: (options.seed ?? 7) + 1 });
  const auditEvents = generateAuditLog(collections, now, options.auditEvents ?? Math.min(100_000, count(100_000)));
  plantViewerScope(collections, groups, options.seed ?? 7);

  return {
    tenantId: '3c9e7b21-5f4a-4d8e-9b6c-1a2f3e4d5c6b',
    displayName: 'Northwind (large)',
    domain: 'northwind-large.onmicrosoft.com',
    collections,
    generated: { ...generated, auditEvents },
    singletons: {
      windowsAutopilotSettings: windowsAutopilotSettings({ lastSyncDateTime: hoursAgo(now, 3), syncStatus: 'completed', now }),
      applePushNotificationCertificate: applePush,
    },
    groups,
    grantedRoles: [...DEMO_GRANTED_ROLES],
    declaredFindings: [],
  };
}

const MODELS = [
  ['Latitude 7440', 'Dell Inc.'],
  ['EliteBook 840 G10', 'HP'],
  ['ThinkPad T14 Gen 4', 'LENOVO'],
  ['Surface Laptop 5', 'Microsoft Corporation'],
  ['OptiPlex 7010', 'Dell Inc.'],
  ['ProBook 450 G9', 'HP'],
] as const;

/** Times as Graph writes them, a whole number of hours or days from the tenant's `now`. */
interface TenantTimes {
  hoursAgo(hours: number): string;
  daysAgo(days: number): string;
  daysFromNow(days: number): string;
}

/**
 * `hoursAgo` and its kin, each distinct time written once: a device is made again at every page
 * that holds it, and writing the same few thousand timestamps anew was about 40 % of the time
 * making 500,000 devices took.
 */
function timesFrom(now: Date): TenantTimes {
  // The amounts drawn are whole numbers below 1,000: each map stays that small.
  const writtenOnce = (write: (from: Date, amount: number) => string) => {
    const written = new Map<number, string>();
    return (amount: number) => {
      let text = written.get(amount);
      if (text === undefined) {
        text = write(now, amount);
        written.set(amount, text);
      }
      return text;
    };
  };
  return { hoursAgo: writtenOnce(hoursAgo), daysAgo: writtenOnce(daysAgo), daysFromNow: writtenOnce(daysFromNow) };
}

/** The records that a managed device has: itself, its recovery keys, its LAPS backup and its startup performance. */
type DevicePart = 'device' | 'recoveryKeys' | 'localCredential' | 'performance';

/** One device drawn: the records of the part asked for, and what it has of every part, made or not. */
interface DrawnDevice {
  made: GraphRecord[];
  recoveryKeys: number;
  localCredential: boolean;
  performance: boolean;
}

/**
 * Device `index` drawn from `random` where the device begins (about 75 % Windows, 1 % of them with
 * no Entra device id; 90 % with an OS volume key, 10 % a data volume key; 80 % with a LAPS backup;
 * 70 % with startup performance while `performanceOpen`), making only the records of `part` (none
 * when null). The same draws in the same order every time, whatever is made: a part not made moves
 * the sequence on as its draws would (`skip`), so a page of recovery keys does not build each
 * key's device, and a device made again is the device first made.
 */
function drawDevice(index: number, random: SeededRandom, times: TenantTimes, performanceOpen: boolean, userId: string | null, part: DevicePart | null): DrawnDevice {
  const guid = () => seededGuid(random);
  const drawn: DrawnDevice = { made: [], recoveryKeys: 0, localCredential: false, performance: false };
  const windows = random() < 0.75;
  const [model, manufacturer] = windows ? pick(random, MODELS) : (['iPhone 15', 'Apple'] as const);
  const deviceName = windows ? `NW-${index.toString().padStart(6, '0')}` : `iPhone-${index}`;
  const hasEntraId = !(windows && random() < 0.01);
  // The device, its keys and its backup name the Entra device id; its performance does not.
  const wantsEntraId = part === 'device' || part === 'recoveryKeys' || part === 'localCredential';
  let entraDeviceId = ZERO_GUID;
  if (hasEntraId && wantsEntraId) entraDeviceId = guid();
  else if (hasEntraId) random.skip(GUID_DRAWS);
  if (part === 'device') {
    const device = managedDevice({
      id: guid(),
      deviceName,
      operatingSystem: windows ? 'Windows' : 'iOS',
      osVersion: windows ? '10.0.22631.4460' : '17.6',
      azureADDeviceId: entraDeviceId,
      userPrincipalName: `user${index}@northwind.example`,
      model,
      manufacturer,
      lastSyncDateTime: times.hoursAgo(Math.floor(random() * 500)),
      enrolledDateTime: times.daysAgo(30 + Math.floor(random() * 900)),
    });
    if (userId !== null) device.userId = userId;
    device.roleScopeTagIds = deviceScopeTags(index);
    drawn.made.push(device);
  } else random.skip(GUID_DRAWS + 2); // Its id, last check-in and enrolment.
  if (!windows || !hasEntraId) return drawn;
  if (random() > 0.1) {
    drawn.recoveryKeys += 1;
    if (part === 'recoveryKeys')
      drawn.made.push(bitlockerRecoveryKey({ id: guid(), entraDeviceId, createdDateTime: times.daysAgo(Math.floor(random() * 400)), volumeType: 'operatingSystemVolume' }));
    else random.skip(GUID_DRAWS + 1); // Its id and creation.
  }
  if (random() < 0.1) {
    drawn.recoveryKeys += 1;
    if (part === 'recoveryKeys') drawn.made.push(bitlockerRecoveryKey({ id: guid(), entraDeviceId, createdDateTime: times.daysAgo(10), volumeType: 'fixedDataVolume' }));
    else random.skip(GUID_DRAWS); // Its id.
  }
  if (random() > 0.2) {
    drawn.localCredential = true;
    if (part === 'localCredential') {
      drawn.made.push(
        deviceLocalCredentialInfo({ entraDeviceId, deviceName, lastBackupDateTime: times.daysAgo(Math.floor(random() * 30)), refreshDateTime: times.daysFromNow(5) }),
      );
    } else random.skip(1); // Its last backup.
  }
  if (performanceOpen && random() < 0.7) {
    drawn.performance = true;
    const slow = random() < 0.08;
    const blueScreens = random() < 0.04 ? 1 + Math.floor(random() * 3) : 0;
    if (part !== 'performance') {
      // Its id, five times and a restart count.
      random.skip(GUID_DRAWS + 6);
      return drawn;
    }
    drawn.made.push(
      devicePerformance({
        id: guid(),
        deviceName,
        model,
        manufacturer,
        diskType: slow ? 'hdd' : 'ssd',
        times: {
          coreBootTimeInMs: Math.round((slow ? 50_000 : 12_000) + random() * 8_000),
          groupPolicyBootTimeInMs: Math.round(1_000 + random() * 3_000),
          coreLoginTimeInMs: Math.round((slow ? 40_000 : 8_000) + random() * 6_000),
          groupPolicyLoginTimeInMs: Math.round(1_000 + random() * 4_000),
          responsiveDesktopTimeInMs: Math.round((slow ? 40_000 : 6_000) + random() * 10_000),
        },
        blueScreenCount: blueScreens,
        restartCount: blueScreens + Math.floor(random() * 6),
        startupPerformanceScore: slow ? 30 : 80,
      }),
    );
  }
  return drawn;
}

/**
 * Device `index`'s scope tags, in the shares report 3's objects have (plantViewerScope): about 30 %
 * Default, 25 % Europe, 20 % Americas, 15 % Asia Pacific and 10 % Europe and Americas. Taken from the
 * index, not drawn, so that no other draw of the tenant moves; 37 shares no factor with 100, so the shares
 * hold in every run of 100 devices. Only beta's managedDevice declares the property (v1-schema.ts).
 */
function deviceScopeTags(index: number): string[] {
  const { europe, americas, asiaPacific } = LARGE_TENANT_SCOPE_TAGS;
  const share = (index * 37) % 100;
  return share < 30 ? [DEFAULT_SCOPE_TAG_ID] : share < 55 ? [europe] : share < 75 ? [americas] : share < 90 ? [asiaPacific] : [europe, americas];
}

/**
 * The large tenant's devices and the lists that hang off them, generated: at 500,000 devices the
 * records themselves would hold about 600 MB of the process that serves them, so each device keeps
 * only where its draws begin (4 bytes), each dependent record the device it belongs to, and a record
 * is made again from the seed when a page asks for it, with only its own part of the device made.
 * `random` ends where drawing every device leaves it, as if the records had been kept. `userIds`
 * gives the first devices their primary user, filled in by the caller once it has drawn them.
 */
function generateDevices(options: {
  random: SeededRandom;
  now: Date;
  deviceCount: number;
  /** Devices with startup performance, at most: the first ones drawn to have it. */
  performanceRows: number;
  userIds: readonly string[];
}): Pick<Required<NonNullable<SimTenant['generated']>>, 'managedDevices' | 'bitlockerRecoveryKeys' | 'deviceLocalCredentials' | 'userExperienceAnalyticsDevicePerformance'> {
  const { random, deviceCount, userIds } = options;
  const times = timesFrom(options.now);
  const starts = new Uint32Array(deviceCount);
  // Each recovery key as its device's index times two, plus its place among the device's keys.
  const keyOwners: number[] = [];
  const credentialOwners: number[] = [];
  const performanceOwners: number[] = [];
  // Devices from this index on were drawn after the performance rows were full.
  let performanceClosedAt = deviceCount;
  for (let index = 0; index < deviceCount; index += 1) {
    starts[index] = random.position();
    const drawn = drawDevice(index, random, times, performanceOwners.length < options.performanceRows, null, null);
    for (let place = 0; place < drawn.recoveryKeys; place += 1) keyOwners.push(index * 2 + place);
    if (drawn.localCredential) credentialOwners.push(index);
    if (drawn.performance) {
      performanceOwners.push(index);
      if (performanceOwners.length === options.performanceRows) performanceClosedAt = index + 1;
    }
  }
  const madeOf = (part: DevicePart) => {
    // Consecutive records of a page mostly share a device (its two keys): the last one made is kept.
    let last: { index: number; records: GraphRecord[] } | null = null;
    return (index: number): GraphRecord[] => {
      if (last?.index !== index) last = { index, records: drawDevice(index, seededRandom(starts[index]!), times, index < performanceClosedAt, userIds[index] ?? null, part).made };
      return last.records;
    };
  };
  const list = (owners: Uint32Array | number, at: (owner: number) => GraphRecord) => ({
    length: typeof owners === 'number' ? owners : owners.length,
    at: (position: number) => at(typeof owners === 'number' ? position : owners[position]!),
  });
  const devices = madeOf('device');
  const recoveryKeys = madeOf('recoveryKeys');
  const localCredentials = madeOf('localCredential');
  const performance = madeOf('performance');
  let byUser: Map<string, number[]> | undefined;
  const devicesByUser = (): Map<string, number[]> => {
    if (byUser) return byUser;
    byUser = new Map();
    for (const [index, userId] of userIds.entries()) {
      if (!userId) continue;
      const key = userId.toLowerCase();
      const list = byUser.get(key);
      if (list) list.push(index);
      else byUser.set(key, [index]);
    }
    return byUser;
  };
  return {
    managedDevices: {
      ...list(deviceCount, (index) => devices(index)[0]!),
      // A device's name and its primary user's UPN carry its index (drawDevice): `NW-000042`, `iPhone-42`, `user42@northwind.example`.
      indexOf: (property: string, value: string) => {
        // A user's devices (`/users/{id}/managedDevices`, src/sim/user-devices.ts): the devices given that primary user.
        if (property === 'userId') return devicesByUser().get(value.toLowerCase()) ?? [];
        // Without case, as the look-alike's `eq` compares (sameFilterString, src/sim/odata-query.ts).
        const pattern = property === 'deviceName' ? /^(?:NW-(\d{6,})|iPhone-(\d+))$/i : property === 'userPrincipalName' ? /^user(\d+)@northwind\.example$/i : null;
        if (!pattern) return undefined;
        const match = pattern.exec(value);
        const index = match ? Number(match[1] ?? match[2]) : Number.NaN;
        if (!Number.isInteger(index) || index < 0 || index >= deviceCount) return [];
        return sameFilterString(devices(index)[0]![property], value) ? [index] : [];
      },
    },
    bitlockerRecoveryKeys: list(Uint32Array.from(keyOwners), (owner) => recoveryKeys(owner >>> 1)[owner & 1]!),
    deviceLocalCredentials: list(Uint32Array.from(credentialOwners), (index) => localCredentials(index)[0]!),
    userExperienceAnalyticsDevicePerformance: list(Uint32Array.from(performanceOwners), (index) => performance(index)[0]!),
  };
}

/**
 * "What applies" on the large tenant, bounded and drawn from a sequence of its own so the rest of
 * the tenant is as before: the first 2,000 managed devices get a primary user (`userId`) who is a
 * member of an existing group, several devices sharing a user; one user group is nested two levels
 * under a new group that a profile includes and another excludes through a nested group; and one
 * group's member list answers 500 (a group the app cannot read: unknown, never "does not apply").
 */
function addAppliesCases(tenant: {
  collections: SimTenant['collections'];
  groups: Map<string, SimGroup>;
  deviceCount: number;
  /** The devices' primary users, filled in here. */
  deviceUserIds: string[];
  now: Date;
  seed: number;
}): void {
  const random = seededRandom(tenant.seed);
  const guid = () => seededGuid(random);
  const userMembers = [...tenant.groups.values()].flatMap((group) => group.members.filter((member) => member.type === 'user').map((member) => member.id));
  if (userMembers.length === 0) return;
  const devices = Math.min(2000, tenant.deviceCount);
  const users = Array.from({ length: Math.max(1, Math.floor(devices / 3)) }, () => pick(random, userMembers));
  for (let index = 0; index < devices; index += 1) tenant.deviceUserIds.push(users[index % users.length]!);
  const group = (displayName: string, members: SimGroup['members'], membersFault?: 500): string => {
    const id = guid();
    tenant.groups.set(id, { id, displayName, members, ...(membersFault ? { membersFault } : {}) });
    return id;
  };
  const leaf = group(
    'Applies Leaf',
    users.slice(0, 50).map((id) => ({ id, type: 'user' as const })),
  );
  const middle = group('Applies Middle', [{ id: leaf, type: 'group' }]);
  const top = group('Applies Top', [{ id: middle, type: 'group' }]);
  const excluded = group('Applies Exclusions', [
    {
      id: group(
        'Applies Excluded Users',
        users.slice(0, 5).map((id) => ({ id, type: 'user' as const })),
      ),
      type: 'group',
    },
  ]);
  const unreadable = group(
    'Applies Unreadable',
    users.slice(0, 20).map((id) => ({ id, type: 'user' as const })),
    500,
  );
  const { now } = tenant;
  tenant.collections.deviceConfigurations.push(
    deviceConfiguration({ id: guid(), displayName: 'Applies nested profile', targets: [{ kind: 'include', groupId: top }], now }),
    deviceConfiguration({
      id: guid(),
      displayName: 'Applies excluded profile',
      targets: [
        { kind: 'include', groupId: top },
        { kind: 'exclude', groupId: excluded },
      ],
      now,
    }),
    deviceConfiguration({ id: guid(), displayName: 'Applies unreadable profile', targets: [{ kind: 'include', groupId: unreadable }], now }),
  );
}

/**
 * A year of Intune's audit log (the log keeps "up to one year of audit events",
 * learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs): `count` changes to the
 * tenant's profiles, compliance policies, settings catalog policies, baselines and apps, evenly
 * spread from a year ago to an hour ago, in the order they were written (the List page promises no
 * other), one in fifty a failed attempt. Made on demand from their index, as the devices are.
 */
function generateAuditLog(collections: SimTenant['collections'], now: Date, count: number): GeneratedRecords {
  const objects = [
    ...collections.deviceConfigurations.map((record) => ({ record, type: 'DeviceConfiguration', name: record.displayName })),
    ...collections.deviceCompliancePolicies.map((record) => ({ record, type: 'DeviceCompliancePolicy', name: record.displayName })),
    ...collections.configurationPolicies.map((record) => ({ record, type: 'DeviceManagementConfigurationPolicy', name: record.name })),
    ...collections.intents.map((record) => ({ record, type: 'DeviceManagementIntent', name: record.displayName })),
    ...collections.mobileApps.map((record) => ({ record, type: 'MobileApp', name: record.displayName })),
  ];
  const newest = now.getTime() - 3_600_000;
  const span = 365 * 86_400_000 - 7_200_000;
  const hex = (index: number) => index.toString(16).padStart(12, '0');
  return {
    length: objects.length === 0 ? 0 : count,
    // Each event is later than the one before (`at` below): a window's read starts at its first.
    sortedBy: ['activityDateTime'],
    at: (index) => {
      const object = objects[(index * 7919) % objects.length]!;
      return auditEvent(`ae000000-0000-4000-8000-${hex(index)}`, `ac000000-0000-4000-8000-${hex(index)}`, {
        resourceId: String(object.record.id),
        resourceName: String(object.name),
        resourceType: object.type,
        operation: 'Patch',
        verb: index % 3 === 0 ? 'Assign' : 'Patch',
        at: new Date(newest - span + Math.floor((span * index) / Math.max(1, count))).toISOString(),
        actor: { user: `admin${index % 12}@northwind-large.example` },
        result: index % 50 === 49 ? 'Failure' : 'Success',
      }) as unknown as GraphRecord;
    },
  };
}
