import { describe, expect, it } from 'vitest';
import { intuneLinks } from '../../../../src/core/reports/intune-links.js';
import type { DeriveContext, DerivedReport, ReportRow } from '../../../../src/core/reports/report-model.js';
import { EMPTY_NOTICE, FRESHNESS_NOTICE, deriveStartupReliability } from '../../../../src/core/reports/startup-reliability/derive.js';
import { timeToDesktopMs } from '../../../../src/core/reports/startup-reliability/load.js';
import type { AppReliability, DeviceStartup, StartupRecords } from '../../../../src/core/reports/startup-reliability/load.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };
const link = intuneLinks.endpointAnalytics();

function device(id: string, deviceName: string, timeToDesktop: number | null, extra: Partial<DeviceStartup> = {}): DeviceStartup {
  return {
    id,
    deviceName,
    model: 'Latitude 7440',
    manufacturer: 'Dell Inc.',
    diskType: 'ssd',
    timeToDesktopMs: timeToDesktop,
    blueScreenCount: 0,
    restartCount: 4,
    insufficientData: false,
    ...extra,
  };
}

function app(id: string, name: string, crashes: number, hangs: number, meanTimeToFailureMinutes: number | null, extra: Partial<AppReliability> = {}): AppReliability {
  return { id, name, publisher: 'Contoso', crashes, hangs, activeDevices: 50, meanTimeToFailureMinutes, healthScore: 80, ...extra };
}

const section = (report: DerivedReport, name: string): ReportRow[] => report.rows.filter((row) => row.section === name);
const findingsOf = (report: DerivedReport, kind: string) => report.findings.filter((finding) => finding.kind === kind).map((finding) => finding.subjectId);

describe('timeToDesktopMs', () => {
  const phases = { coreBootTimeInMs: 20_000, groupPolicyBootTimeInMs: 5_000, coreLoginTimeInMs: 15_000, groupPolicyLoginTimeInMs: 3_000 };

  it('sums the four boot and sign-in phases plus the time to a responsive desktop', () => {
    expect(timeToDesktopMs({ ...phases, responsiveDesktopTimeInMs: 7_000 })).toBe(50_000);
  });

  it('sums the four phases alone when the responsive-desktop time is absent, null or negative', () => {
    expect(timeToDesktopMs(phases)).toBe(43_000);
    expect(timeToDesktopMs({ ...phases, responsiveDesktopTimeInMs: null })).toBe(43_000);
    expect(timeToDesktopMs({ ...phases, responsiveDesktopTimeInMs: -1 })).toBe(43_000);
  });

  it('accepts a phase that took zero milliseconds', () => {
    expect(timeToDesktopMs({ ...phases, groupPolicyBootTimeInMs: 0, groupPolicyLoginTimeInMs: 0, responsiveDesktopTimeInMs: 0 })).toBe(35_000);
  });

  it.each(['coreBootTimeInMs', 'groupPolicyBootTimeInMs', 'coreLoginTimeInMs', 'groupPolicyLoginTimeInMs'] as const)('is null when %s is negative (unavailable)', (phase) => {
    expect(timeToDesktopMs({ ...phases, [phase]: -1, responsiveDesktopTimeInMs: 7_000 })).toBeNull();
  });

  it.each(['coreBootTimeInMs', 'groupPolicyBootTimeInMs', 'coreLoginTimeInMs', 'groupPolicyLoginTimeInMs'] as const)('is null when %s is missing or not a number', (phase) => {
    const { [phase]: _dropped, ...without } = phases;
    expect(timeToDesktopMs({ ...without, responsiveDesktopTimeInMs: 7_000 })).toBeNull();
    expect(timeToDesktopMs({ ...phases, [phase]: null })).toBeNull();
    expect(timeToDesktopMs({ ...phases, [phase]: '5000' })).toBeNull();
    expect(timeToDesktopMs({ ...phases, [phase]: Number.NaN })).toBeNull();
  });
});

describe('deriveStartupReliability', () => {
  describe('notices', () => {
    it('is empty with exactly the specification notice when there is no device performance data', () => {
      const report = deriveStartupReliability({ devices: [], apps: [app('a-1', 'Teams', 3, 0, 60)] }, context);
      expect(report).toEqual({ state: 'empty', notice: EMPTY_NOTICE, columns: report.columns, rows: [], findings: [] });
      expect(EMPTY_NOTICE).toBe('Endpoint analytics returned no device performance data. Is endpoint analytics enabled for this tenant?');
    });

    it('is loaded with the freshness notice when there is data', () => {
      const report = deriveStartupReliability({ devices: [device('d-1', 'PC-1', 60_000)], apps: [] }, context);
      expect(report.state).toBe('loaded');
      expect(report.notice).toBe(FRESHNESS_NOTICE);
      expect(FRESHNESS_NOTICE).toContain('29 days');
      expect(FRESHNESS_NOTICE).toContain('once a day');
    });

    it('names the section of every column', () => {
      const report = deriveStartupReliability({ devices: [device('d-1', 'PC-1', 60_000)], apps: [] }, context);
      expect(report.columns.map((column) => [column.section, column.key])).toEqual([
        ['devices', 'device'],
        ['devices', 'model'],
        ['devices', 'diskType'],
        ['devices', 'timeToDesktopSeconds'],
        ['devices', 'blueScreens'],
        ['devices', 'restarts'],
        ['apps', 'app'],
        ['apps', 'publisher'],
        ['apps', 'crashes'],
        ['apps', 'hangs'],
        ['apps', 'activeDevices'],
        ['apps', 'meanTimeToFailureMinutes'],
        ['apps', 'healthScore'],
        ['models', 'modelName'],
        ['models', 'manufacturer'],
        ['models', 'devices'],
        ['models', 'meanTimeToDesktopSeconds'],
        ['models', 'blueScreensPerDevice'],
      ]);
    });
  });

  describe('slow-startup', () => {
    it('is raised above 120 s, with the time, threshold, model and disk in the detail', () => {
      const report = deriveStartupReliability({ devices: [device('d-slow', 'PC-SLOW', 125_400, { diskType: 'hdd', model: 'ThinkPad T480' })], apps: [] }, context);
      expect(report.findings).toEqual([
        {
          kind: 'slow-startup',
          subjectId: 'd-slow',
          subjectName: 'PC-SLOW',
          detail: '125.4 s from power-on to a usable desktop (threshold 120 s); ThinkPad T480, HDD.',
        },
      ]);
    });

    it('is raised just above the threshold, not at it or below', () => {
      const records: StartupRecords = {
        devices: [device('d-over', 'PC-OVER', 120_001), device('d-at', 'PC-AT', 120_000), device('d-under', 'PC-UNDER', 45_000)],
        apps: [],
      };
      expect(findingsOf(deriveStartupReliability(records, context), 'slow-startup')).toEqual(['d-over']);
    });

    it('is not raised for a device endpoint analytics has insufficient data for', () => {
      const records: StartupRecords = { devices: [device('d-insufficient', 'PC-NEW', 300_000, { insufficientData: true })], apps: [] };
      const report = deriveStartupReliability(records, context);
      expect(report.findings).toEqual([]);
      // It is still listed, with its time.
      expect(section(report, 'devices')[0]).toMatchObject({ id: 'd-insufficient', timeToDesktopSeconds: 300 });
    });

    it('is not raised for a device without a full measurement', () => {
      const report = deriveStartupReliability({ devices: [device('d-unmeasured', 'PC-X', null)], apps: [] }, context);
      expect(report.findings).toEqual([]);
      expect(section(report, 'devices')[0]?.timeToDesktopSeconds).toBeNull();
    });

    it('follows the configured threshold and leaves the disk out of the detail when unknown', () => {
      const records: StartupRecords = { devices: [device('d-1', 'PC-1', 61_000, { diskType: null })], apps: [] };
      const report = deriveStartupReliability(records, { now, thresholds: { ...DEFAULT_THRESHOLDS, slowStartupSeconds: 60 } });
      expect(report.findings).toEqual([
        { kind: 'slow-startup', subjectId: 'd-1', subjectName: 'PC-1', detail: '61 s from power-on to a usable desktop (threshold 60 s); Latitude 7440.' },
      ]);
    });
  });

  describe('blue-screens', () => {
    it('is raised for a device with at least one blue screen, whatever its startup data', () => {
      const records: StartupRecords = {
        devices: [
          device('d-one', 'PC-ONE', 30_000, { blueScreenCount: 1 }),
          device('d-three', 'PC-THREE', null, { blueScreenCount: 3, insufficientData: true }),
          device('d-none', 'PC-NONE', 30_000, { blueScreenCount: 0 }),
        ],
        apps: [],
      };
      const report = deriveStartupReliability(records, context);
      expect(report.findings).toEqual([
        { kind: 'blue-screens', subjectId: 'd-one', subjectName: 'PC-ONE', detail: '1 blue screen in the last 30 days.' },
        { kind: 'blue-screens', subjectId: 'd-three', subjectName: 'PC-THREE', detail: '3 blue screens in the last 30 days.' },
      ]);
    });

    it('is not raised for a device without blue screens', () => {
      const report = deriveStartupReliability({ devices: [device('d-none', 'PC-NONE', 30_000)], apps: [] }, context);
      expect(findingsOf(report, 'blue-screens')).toEqual([]);
    });

    it('can be raised beside slow-startup for the same device', () => {
      const report = deriveStartupReliability({ devices: [device('d-both', 'PC-BOTH', 200_000, { blueScreenCount: 2 })], apps: [] }, context);
      expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
        ['slow-startup', 'd-both'],
        ['blue-screens', 'd-both'],
      ]);
    });
  });

  describe('unreliable-app', () => {
    const devices = [device('d-1', 'PC-1', 60_000)];

    it('is raised when an app fails and fails on average within a day of use', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-crashy', 'Crashy CRM', 12, 3, 600)] }, context);
      expect(report.findings).toEqual([
        {
          kind: 'unreliable-app',
          subjectId: 'a-crashy',
          subjectName: 'Crashy CRM',
          detail: '12 crashes and 3 hangs; fails every 600 minutes of use on average (threshold 1440).',
        },
      ]);
    });

    it('counts hangs alone as failures', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-hangs', 'Hangy Viewer', 0, 1, 90)] }, context);
      expect(report.findings).toEqual([
        { kind: 'unreliable-app', subjectId: 'a-hangs', subjectName: 'Hangy Viewer', detail: '0 crashes and 1 hang; fails every 90 minutes of use on average (threshold 1440).' },
      ]);
    });

    it('counts crashes alone as failures', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-crash', 'Crash Only', 1, 0, 30)] }, context);
      expect(findingsOf(report, 'unreliable-app')).toEqual(['a-crash']);
      expect(report.findings[0]?.detail).toBe('1 crash and 0 hangs; fails every 30 minutes of use on average (threshold 1440).');
    });

    it('is not raised at or above the one-day mean time to failure', () => {
      const apps = [app('a-at', 'At threshold', 5, 0, 1440), app('a-above', 'Above threshold', 5, 5, 5000), app('a-below', 'Below threshold', 5, 0, 1439)];
      expect(findingsOf(deriveStartupReliability({ devices, apps }, context), 'unreliable-app')).toEqual(['a-below']);
    });

    it('is not raised for an app without failures (Int32.MaxValue, read as null by load)', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-fine', 'Fine App', 0, 0, null)] }, context);
      expect(report.findings).toEqual([]);
      expect(section(report, 'apps')[0]).toMatchObject({ id: 'a-fine', meanTimeToFailureMinutes: null });
    });

    it('is not raised when the mean time to failure is unavailable, even with failures', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-unknown', 'Unknown MTTF', 4, 2, null)] }, context);
      expect(report.findings).toEqual([]);
    });

    it('is not raised for an app with no crash or hang, whatever its mean time to failure', () => {
      const report = deriveStartupReliability({ devices, apps: [app('a-zero', 'Zero failures', 0, 0, 10)] }, context);
      expect(report.findings).toEqual([]);
    });

    it('lists unreliable apps first, then by most failures, as the summary says and the tab keeps', () => {
      const apps = [
        app('a-few', 'Few failures', 1, 1, 2000),
        app('a-often', 'Often, over a long use', 30, 30, 5000),
        app('a-many', 'Many failures', 2, 40, 100, { publisher: null, activeDevices: null, healthScore: null }),
        app('a-tie-crash', 'Tie, more crashes', 5, 1, 900),
        app('a-tie-hang', 'Tie, more hangs', 1, 5, 900),
      ];
      const report = deriveStartupReliability({ devices, apps }, context);
      expect(section(report, 'apps').map((row) => row.id)).toEqual(['a-many', 'a-tie-crash', 'a-tie-hang', 'a-often', 'a-few']);
      expect(section(report, 'apps')[0]).toEqual({
        section: 'apps',
        id: 'a-many',
        app: 'Many failures',
        publisher: null,
        crashes: 2,
        hangs: 40,
        activeDevices: null,
        meanTimeToFailureMinutes: 100,
        healthScore: null,
        link,
      });
    });
  });

  describe('device rows', () => {
    it('lists devices with blue screens, then slow ones, then the rest, each slowest first and unmeasured devices last', () => {
      const records: StartupRecords = {
        devices: [
          device('d-fast', 'PC-FAST', 30_000),
          device('d-slow-bsod', 'PC-SLOW-B', 130_000, { blueScreenCount: 1 }),
          device('d-slow-unscored', 'PC-SLOW-UNSCORED', 200_000, { insufficientData: true }),
          device('d-unmeasured', 'PC-UNMEASURED', null, { blueScreenCount: 5 }),
          device('d-slowest', 'PC-SLOWEST', 190_000),
          device('d-mid-bsod', 'PC-MID-B', 60_000, { blueScreenCount: 2 }),
          device('d-mid', 'PC-MID-A', 60_000),
        ],
        apps: [],
      };
      const report = deriveStartupReliability(records, context);
      // The summary's order, which is the tab's default one too: the worst finding first (docs/contract.md, "Columns").
      expect(section(report, 'devices').map((row) => row.id)).toEqual(['d-slow-bsod', 'd-mid-bsod', 'd-unmeasured', 'd-slowest', 'd-slow-unscored', 'd-mid', 'd-fast']);
    });

    it('shows the time in seconds, disk, blue screens and restarts', () => {
      const report = deriveStartupReliability({ devices: [device('d-1', 'PC-1', 95_449, { blueScreenCount: 1, restartCount: null })], apps: [] }, context);
      expect(section(report, 'devices')).toEqual([
        { section: 'devices', id: 'd-1', device: 'PC-1', model: 'Latitude 7440', diskType: 'ssd', timeToDesktopSeconds: 95.4, blueScreens: 1, restarts: null, link },
      ]);
    });
  });

  describe('model breakdown', () => {
    it('gives devices, mean time to desktop and blue screens per device by model, slowest first', () => {
      const records: StartupRecords = {
        devices: [
          device('d-l1', 'LAT-1', 40_000, { blueScreenCount: 1 }),
          device('d-l2', 'LAT-2', 60_000),
          device('d-l3', 'LAT-3', null, { blueScreenCount: 1 }),
          device('d-t1', 'TP-1', 150_000, { model: 'ThinkPad T480', manufacturer: 'LENOVO', blueScreenCount: 2 }),
          device('d-s1', 'SURF-1', null, { model: 'Surface Laptop 5', manufacturer: 'Microsoft Corporation' }),
          device('d-e1', 'ELITE-1', 90_000, { model: 'EliteBook 840', manufacturer: 'HP' }),
          device('d-e2', 'ELITE-2', 100_000, { model: 'EliteBook 840', manufacturer: 'HP', blueScreenCount: 1 }),
        ],
        apps: [],
      };
      const report = deriveStartupReliability(records, context);
      expect(section(report, 'models')).toEqual([
        {
          section: 'models',
          id: 'LENOVO/ThinkPad T480',
          modelName: 'ThinkPad T480',
          manufacturer: 'LENOVO',
          devices: 1,
          meanTimeToDesktopSeconds: 150,
          blueScreensPerDevice: 2,
          link,
        },
        { section: 'models', id: 'HP/EliteBook 840', modelName: 'EliteBook 840', manufacturer: 'HP', devices: 2, meanTimeToDesktopSeconds: 95, blueScreensPerDevice: 0.5, link },
        // The mean covers measured devices only; blue screens per device cover all three.
        {
          section: 'models',
          id: 'Dell Inc./Latitude 7440',
          modelName: 'Latitude 7440',
          manufacturer: 'Dell Inc.',
          devices: 3,
          meanTimeToDesktopSeconds: 50,
          blueScreensPerDevice: 0.67,
          link,
        },
        {
          section: 'models',
          id: 'Microsoft Corporation/Surface Laptop 5',
          modelName: 'Surface Laptop 5',
          manufacturer: 'Microsoft Corporation',
          devices: 1,
          meanTimeToDesktopSeconds: null,
          blueScreensPerDevice: 0,
          link,
        },
      ]);
    });

    it('keeps the same model name from two manufacturers apart', () => {
      const records: StartupRecords = {
        devices: [
          device('d-1', 'A', 50_000, { model: 'Virtual Machine', manufacturer: 'Microsoft Corporation' }),
          device('d-2', 'B', 70_000, { model: 'Virtual Machine', manufacturer: 'VMware, Inc.' }),
        ],
        apps: [],
      };
      const report = deriveStartupReliability(records, context);
      expect(section(report, 'models').map((row) => [row.id, row.devices, row.meanTimeToDesktopSeconds])).toEqual([
        ['VMware, Inc./Virtual Machine', 1, 70],
        ['Microsoft Corporation/Virtual Machine', 1, 50],
      ]);
    });
  });

  it('orders the rows devices, then apps, then models', () => {
    const records: StartupRecords = {
      devices: [device('d-1', 'PC-1', 60_000), device('d-2', 'PC-2', 70_000)],
      apps: [app('a-1', 'Teams', 1, 0, 2000)],
    };
    const report = deriveStartupReliability(records, context);
    expect(report.rows.map((row) => [row.section, row.id])).toEqual([
      ['devices', 'd-2'],
      ['devices', 'd-1'],
      ['apps', 'a-1'],
      ['models', 'Dell Inc./Latitude 7440'],
    ]);
  });
});
