import type * as Graph from '@microsoft/microsoft-graph-types';
import { asNumber, asString, compareText } from './graph-values.js';
import { intuneLinks } from './intune-links.js';
import type { FindingKindTable } from '../findings/finding-kinds.js';
import type { DeriveContext, DerivedReport, FindingDraft, LoadContext, ReportColumn, ReportDefinition, ReportRow } from './report-model.js';
import { INITIALIZING_TEXT, sectionColumns } from './report-model.js';
import { readCollection } from './read-collection.js';
import { loadSideBySide } from './side-by-side.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
const STARTUP_FINDING_KINDS = {
  'blue-screens': {
    label: 'Devices with blue screens',
    severity: 'high',
    remediation: {
      why: 'A blue screen is a stop error: Windows halts and restarts, and the user loses unsaved work in every open app. Repeated stop errors usually come from a driver, firmware or failing hardware, and a driver or firmware fault tends to hit every device of the same model.',
      steps: [
        "Compare the device with others of its model: this report's model table shows blue screens per device, and Reports > Endpoint analytics > Startup performance in Intune shows the device's restarts by category, stop errors included.",
        'On the device, get the stop code from Event Viewer > Windows Logs > System (event 1001, source BugCheck) or the dump in C:\\Windows\\Minidump, and look it up in the bug check code reference, which names the usual causes.',
        "If the code points at a driver, or the errors follow a model, install the manufacturer's current drivers and firmware for that model, through a Windows driver update policy in Intune or the vendor's own tools.",
        "If the errors stay on one device, run the manufacturer's hardware diagnostics (memory and disk first) and repair or replace the device.",
      ],
      sources: [
        { title: 'Bug check code reference', url: 'https://learn.microsoft.com/en-us/windows-hardware/drivers/debugger/bug-check-code-reference2' },
        { title: 'Startup performance in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/startup-performance' },
        {
          title: 'userExperienceAnalyticsOperatingSystemRestartCategory (blueScreen: a restart caused by a stop error)',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-devices-userexperienceanalyticsoperatingsystemrestartcategory?view=graph-rest-beta',
        },
      ],
    },
  },
  'unreliable-app': {
    label: 'Unreliable applications',
    severity: 'medium',
    remediation: {
      why: 'The app crashes or hangs so often that its mean time to failure is under a day of use: users lose work and open tickets, and because a faulty build fails the same way everywhere, the cost multiplies across devices.',
      steps: [
        'In Reports > Endpoint analytics > Application reliability, open the app on the App performance tab to see which versions, device models and OS versions its failures come from.',
        "If one version is to blame, update the app: deploy the vendor's fixed build through Apps > Windows and retire the failing one.",
        'If the failures follow a setting, add-in or corrupted cache, correct that state on every device with a Remediation (Devices > Manage devices > Scripts and remediations): a detection script finds the state, a remediation script fixes it.',
        'Recheck once the fix has had time to show: the report works on a 14-day rolling window, so the mean time to failure improves gradually.',
      ],
      sources: [{ title: 'Application reliability in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/app-reliability' }],
    },
  },
  'slow-startup': {
    label: 'Devices slow to start',
    severity: 'low',
    remediation: {
      why: 'Power-on to a responsive desktop takes longer than the threshold (2 minutes by default), and the user waits that long at every start. The common causes are a hard disk as boot drive, slow group policy at boot or sign-in, and startup processes that keep the desktop busy.',
      steps: [
        'In Reports > Endpoint analytics > Startup performance, open the device: the breakdown shows which phase takes the time (core boot, group policy at boot, core sign-in, group policy at sign-in, responsive desktop).',
        'If the boot drive is a hard disk, replace it or the device: hard disks boot three to four times slower than solid-state drives.',
        'If the group policy phases are long (usually on hybrid-joined devices), review the GPOs and logon scripts that apply at boot and sign-in, and move what you can to Intune.',
        "If the responsive desktop is slow, the Startup processes tab lists what runs at sign-in and how long it delays the desktop; remove or delay what users don't need straight away.",
      ],
      sources: [{ title: 'Startup performance in endpoint analytics', url: 'https://learn.microsoft.com/en-us/mem/analytics/startup-performance' }],
    },
  },
} as const satisfies FindingKindTable;
type StartupFindingKind = keyof typeof STARTUP_FINDING_KINDS;

export interface DeviceStartup {
  id: string;
  deviceName: string;
  model: string;
  manufacturer: string;
  diskType: string | null;
  /** Power-on to a usable desktop, in ms; null when a phase is missing or unavailable. */
  timeToDesktopMs: number | null;
  blueScreenCount: number;
  restartCount: number | null;
  insufficientData: boolean;
}

export interface AppReliability {
  id: string;
  name: string;
  publisher: string | null;
  crashes: number;
  hangs: number;
  activeDevices: number | null;
  /** null when the app had no failures (Graph sends Int32.MaxValue) or the value is unavailable. */
  meanTimeToFailureMinutes: number | null;
  /** null when unavailable (negative scores mean "not enough data", not zero). */
  healthScore: number | null;
}

export interface StartupRecords {
  devices: DeviceStartup[];
  apps: AppReliability[];
}

export const EMPTY_NOTICE = 'Endpoint analytics returned no device performance data. Is endpoint analytics enabled for this tenant?';
export const FRESHNESS_NOTICE = 'Endpoint analytics refreshes these figures about once a day and keeps about 29 days of startup data.';

/** "No failures" in endpoint analytics' mean time to failure (learn.microsoft.com/mem/analytics known issues, CSV mapping). */
const NO_FAILURES = 2147483647;

/**
 * Power-on to usable desktop: boot (core + group policy) plus sign-in (core + group policy) plus
 * the time until the desktop responds. Endpoint analytics defines boot as "power-on to sign in"
 * and sign-in as "credentials entered until the user can access a responsive desktop"
 * (learn.microsoft.com/mem/analytics/startup-performance); the time a user sits at the sign-in
 * prompt is not measured and not counted. Negative values mean unavailable.
 */
export function timeToDesktopMs(
  record: Partial<Record<'coreBootTimeInMs' | 'groupPolicyBootTimeInMs' | 'coreLoginTimeInMs' | 'groupPolicyLoginTimeInMs' | 'responsiveDesktopTimeInMs', unknown>>,
): number | null {
  const required = [record.coreBootTimeInMs, record.groupPolicyBootTimeInMs, record.coreLoginTimeInMs, record.groupPolicyLoginTimeInMs].map(asNumber);
  if (required.some((value) => value === null || value < 0)) return null;
  const responsive = asNumber(record.responsiveDesktopTimeInMs);
  return (required as number[]).reduce((sum, value) => sum + value, 0) + (responsive !== null && responsive > 0 ? responsive : 0);
}

async function loadStartup(context: LoadContext): Promise<StartupRecords> {
  const [devices, apps] = await loadSideBySide<[DeviceStartup[], AppReliability[]]>([
    (signal) =>
      readCollection<Graph.UserExperienceAnalyticsDevicePerformance, DeviceStartup>(
        context,
        'userExperienceAnalyticsDevicePerformance',
        '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance',
        { signal },
        (record) => ({
          id: String(record.id),
          deviceName: record.deviceName ?? String(record.id),
          model: record.model ?? 'Unknown model',
          manufacturer: record.manufacturer ?? '',
          diskType: asString(record.diskType),
          timeToDesktopMs: timeToDesktopMs(record),
          blueScreenCount: Math.max(0, asNumber(record.blueScreenCount) ?? 0),
          restartCount: asNumber(record.restartCount),
          insufficientData: record.healthStatus === 'insufficientData',
        }),
      ),
    (signal) =>
      readCollection<Graph.UserExperienceAnalyticsAppHealthApplicationPerformance, AppReliability>(
        context,
        'userExperienceAnalyticsAppHealthApplicationPerformance',
        '/v1.0/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
        { signal },
        (record) => {
          const mttf = asNumber(record.meanTimeToFailureInMinutes);
          const score = asNumber(record.appHealthScore);
          return {
            id: String(record.id),
            name: record.appDisplayName || record.appName || String(record.id),
            publisher: asString(record.appPublisher),
            crashes: Math.max(0, asNumber(record.appCrashCount) ?? 0),
            hangs: Math.max(0, asNumber(record.appHangCount) ?? 0),
            activeDevices: asNumber(record.activeDeviceCount),
            meanTimeToFailureMinutes: mttf === null || mttf < 0 || mttf >= NO_FAILURES ? null : mttf,
            healthScore: score === null || score < 0 ? null : score,
          };
        },
      ),
  ]);
  return { devices, apps };
}

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);

const SECTION_DEVICES = 'devices';
const SECTION_APPS = 'apps';
const SECTION_MODELS = 'models';

export function deriveStartupReliability(records: StartupRecords, { thresholds }: DeriveContext): DerivedReport<StartupFindingKind> {
  const columns: ReportColumn[] = [
    ...sectionColumns(SECTION_DEVICES, [
      { key: 'device', label: 'Device', format: 'text' },
      { key: 'model', label: 'Model', format: 'text' },
      { key: 'diskType', label: 'Disk', format: 'text' },
      { key: 'timeToDesktopSeconds', label: 'Power-on to desktop (s)', format: 'duration', unit: 'seconds' },
      { key: 'blueScreens', label: 'Blue screens (30 days)', format: 'count' },
      { key: 'restarts', label: 'Restarts (30 days)', format: 'count' },
    ]),
    ...sectionColumns(SECTION_APPS, [
      { key: 'app', label: 'Application', format: 'text' },
      { key: 'publisher', label: 'Publisher', format: 'text' },
      { key: 'crashes', label: 'Crashes', format: 'count' },
      { key: 'hangs', label: 'Hangs', format: 'count' },
      { key: 'activeDevices', label: 'Devices', format: 'count' },
      { key: 'meanTimeToFailureMinutes', label: 'Mean time to failure (min)', format: 'duration', unit: 'minutes' },
      { key: 'healthScore', label: 'Health score', format: 'number' },
    ]),
    ...sectionColumns(SECTION_MODELS, [
      { key: 'modelName', label: 'Model', format: 'text' },
      { key: 'manufacturer', label: 'Manufacturer', format: 'text' },
      { key: 'devices', label: 'Devices', format: 'count' },
      { key: 'meanTimeToDesktopSeconds', label: 'Mean power-on to desktop (s)', format: 'duration', unit: 'seconds' },
      { key: 'blueScreensPerDevice', label: 'Blue screens per device', format: 'number' },
    ]),
  ];
  if (records.devices.length === 0) return { state: 'empty', notice: EMPTY_NOTICE, columns, rows: [], findings: [] };

  const findings: FindingDraft<StartupFindingKind>[] = [];
  const slowMs = thresholds.slowStartupSeconds * 1000;
  const link = intuneLinks.endpointAnalytics();

  // Slowest first, then the most blue screens; devices without a full measurement last.
  const devices = [...records.devices].sort(
    (a, b) => (b.timeToDesktopMs ?? -1) - (a.timeToDesktopMs ?? -1) || b.blueScreenCount - a.blueScreenCount || compareText(a.deviceName, b.deviceName),
  );
  const rows: ReportRow[] = [];
  for (const device of devices) {
    rows.push({
      section: SECTION_DEVICES,
      id: device.id,
      device: device.deviceName,
      model: device.model,
      diskType: device.diskType,
      timeToDesktopSeconds: seconds(device.timeToDesktopMs),
      blueScreens: device.blueScreenCount,
      restarts: device.restartCount,
      link,
    });
    // A device marked "insufficient data" has too few boots for endpoint analytics to score it
    // (learn.microsoft.com/mem/analytics/startup-performance); it is listed but not ranked as slow.
    if (device.timeToDesktopMs !== null && device.timeToDesktopMs > slowMs && !device.insufficientData) {
      findings.push({
        kind: 'slow-startup',
        subjectId: device.id,
        subjectName: device.deviceName,
        detail: `${seconds(device.timeToDesktopMs)} s from power-on to a usable desktop (threshold ${thresholds.slowStartupSeconds} s); ${device.model}${device.diskType ? `, ${device.diskType.toUpperCase()}` : ''}.`,
      });
    }
    if (device.blueScreenCount > 0) {
      findings.push({
        kind: 'blue-screens',
        subjectId: device.id,
        subjectName: device.deviceName,
        detail: `${device.blueScreenCount} blue screen${device.blueScreenCount === 1 ? '' : 's'} in the last 30 days.`,
      });
    }
  }

  const apps = [...records.apps].sort((a, b) => b.crashes + b.hangs - (a.crashes + a.hangs) || b.crashes - a.crashes || compareText(a.name, b.name));
  for (const app of apps) {
    rows.push({
      section: SECTION_APPS,
      id: app.id,
      app: app.name,
      publisher: app.publisher,
      crashes: app.crashes,
      hangs: app.hangs,
      activeDevices: app.activeDevices,
      meanTimeToFailureMinutes: app.meanTimeToFailureMinutes,
      healthScore: app.healthScore,
      link,
    });
    const failures = app.crashes + app.hangs;
    if (failures > 0 && app.meanTimeToFailureMinutes !== null && app.meanTimeToFailureMinutes < thresholds.unreliableAppMttfMinutes) {
      findings.push({
        kind: 'unreliable-app',
        subjectId: app.id,
        subjectName: app.name,
        detail: `${app.crashes} crash${app.crashes === 1 ? '' : 'es'} and ${app.hangs} hang${app.hangs === 1 ? '' : 's'}; fails every ${app.meanTimeToFailureMinutes} minutes of use on average (threshold ${thresholds.unreliableAppMttfMinutes}).`,
      });
    }
  }

  const models = new Map<string, { model: string; manufacturer: string; devices: number; measured: number; totalMs: number; blueScreens: number }>();
  for (const device of records.devices) {
    const key = `${device.manufacturer}\u0000${device.model}`;
    const entry = models.get(key) ?? { model: device.model, manufacturer: device.manufacturer, devices: 0, measured: 0, totalMs: 0, blueScreens: 0 };
    entry.devices += 1;
    entry.blueScreens += device.blueScreenCount;
    if (device.timeToDesktopMs !== null) {
      entry.measured += 1;
      entry.totalMs += device.timeToDesktopMs;
    }
    models.set(key, entry);
  }
  const modelRows = [...models.values()].map((entry) => ({
    entry,
    meanMs: entry.measured > 0 ? entry.totalMs / entry.measured : null,
  }));
  modelRows.sort((a, b) => (b.meanMs ?? -1) - (a.meanMs ?? -1) || compareText(a.entry.model, b.entry.model));
  for (const { entry, meanMs } of modelRows) {
    rows.push({
      section: SECTION_MODELS,
      id: `${entry.manufacturer}/${entry.model}`,
      modelName: entry.model,
      manufacturer: entry.manufacturer,
      devices: entry.devices,
      meanTimeToDesktopSeconds: seconds(meanMs),
      blueScreensPerDevice: Math.round((entry.blueScreens / entry.devices) * 100) / 100,
      link,
    });
  }
  return { state: 'loaded', notice: FRESHNESS_NOTICE, columns, rows, findings };
}

export const startupReliabilityReport: ReportDefinition<StartupRecords, StartupFindingKind> = {
  id: 'startup-reliability',
  title: 'Startup Performance & App Reliability',
  summary: 'Devices slowest from power-on to a usable desktop, devices with blue screens, and the applications that crash or hang most, with a breakdown by device model.',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  prerequisites: ['An Intune licence for the tenant.', 'Endpoint analytics enabled for the tenant. Its figures refresh about once a day.'],
  beta: false,
  navigationLabel: 'Startup & app reliability',
  botNames: ['startup', 'startup performance', 'app reliability', 'reliability', 'startup reliability', 'startup and app reliability', 'startup performance and app reliability'],
  botTopics: [
    'start up',
    'boot',
    'boots',
    'boot time',
    'slow',
    'slowest',
    'crash',
    'crashes',
    'crashing',
    'blue screen',
    'blue screens',
    'bsod',
    'performance',
    'hang',
    'hangs',
    'freezes',
    'apps crash',
  ],
  botDescription: 'Slow startups, blue screens and unreliable apps',
  tables: { [SECTION_DEVICES]: 'Devices', [SECTION_APPS]: 'Applications', [SECTION_MODELS]: 'Device models' },
  // The specification names no placeholder of its own for report 6's fetch: its status line stays.
  pending: { starting: INITIALIZING_TEXT, fetching: INITIALIZING_TEXT },
  charts: ['slowest-models'],
  findingKinds: STARTUP_FINDING_KINDS,
  optionalSources: [],
  load: loadStartup,
  derive: deriveStartupReliability,
};
