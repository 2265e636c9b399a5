/** Report 6's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { compareText } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { DeriveContext, DerivedReport, FindingDraft, ReportColumn, ReportRow } from '../report-model.js';
import { sectionColumns } from '../report-model.js';
import type { StartupFindingKind } from './finding-kinds.js';
import type { StartupRecords } from './load.js';
import type { StartupThresholds } from './thresholds.js';
import { plural } from '../../text/words.js';

export const EMPTY_NOTICE = 'Endpoint analytics returned no device performance data. Is endpoint analytics enabled for this tenant?';
export const FRESHNESS_NOTICE = 'Endpoint analytics refreshes these figures about once a day and keeps about 29 days of startup data.';

const seconds = (ms: number | null) => (ms === null ? null : Math.round(ms / 100) / 10);

export const SECTION_DEVICES = 'devices';
export const SECTION_APPS = 'apps';
export const SECTION_MODELS = 'models';

export function deriveStartupReliability(records: StartupRecords, { thresholds }: DeriveContext<StartupThresholds>): DerivedReport<StartupFindingKind> {
  const columns: ReportColumn[] = [
    ...sectionColumns(SECTION_DEVICES, [
      { key: 'device', label: 'Device', format: 'text', role: 'name' },
      { key: 'model', label: 'Model', format: 'text' },
      { key: 'diskType', label: 'Disk', format: 'text' },
      { key: 'timeToDesktopSeconds', label: 'Power-on to desktop (s)', format: 'duration', unit: 'seconds' },
      { key: 'blueScreens', label: 'Blue screens (30 days)', format: 'count' },
      { key: 'restarts', label: 'Restarts (30 days)', format: 'count' },
    ]),
    ...sectionColumns(SECTION_APPS, [
      { key: 'app', label: 'Application', format: 'text', role: 'name' },
      { key: 'publisher', label: 'Publisher', format: 'text' },
      { key: 'crashes', label: 'Crashes', format: 'count' },
      { key: 'hangs', label: 'Hangs', format: 'count' },
      { key: 'activeDevices', label: 'Devices', format: 'count' },
      { key: 'meanTimeToFailureMinutes', label: 'Mean time to failure (min)', format: 'duration', unit: 'minutes' },
      { key: 'healthScore', label: 'Health score', format: 'number' },
    ]),
    ...sectionColumns(SECTION_MODELS, [
      { key: 'modelName', label: 'Model', format: 'text', role: 'name' },
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

  // A device marked "insufficient data" has too few boots for endpoint analytics to score it
  // (learn.microsoft.com/mem/analytics/startup-performance); it is listed but not ranked as slow.
  const isSlow = (device: StartupRecords['devices'][number]) => device.timeToDesktopMs !== null && device.timeToDesktopMs > slowMs && !device.insufficientData;
  // The order the summary states and the tab keeps before anyone sorts (its worst open finding
  // first, then this order: docs/contract.md, "Columns"), so the command line, the bot and the tab
  // list the same device first: blue screens (high), then slow to start (low), then the rest; in
  // each, slowest first, devices without a full measurement last.
  const deviceRank = (device: StartupRecords['devices'][number]) => (device.blueScreenCount > 0 ? 0 : isSlow(device) ? 1 : 2);
  const devices = [...records.devices].sort(
    (a, b) =>
      deviceRank(a) - deviceRank(b) || (b.timeToDesktopMs ?? -1) - (a.timeToDesktopMs ?? -1) || b.blueScreenCount - a.blueScreenCount || compareText(a.deviceName, b.deviceName),
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
    if (isSlow(device) && device.timeToDesktopMs !== null) {
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
        detail: `${plural(device.blueScreenCount, 'blue screen')} in the last 30 days.`,
      });
    }
  }

  const isUnreliable = (app: StartupRecords['apps'][number]) =>
    app.crashes + app.hangs > 0 && app.meanTimeToFailureMinutes !== null && app.meanTimeToFailureMinutes < thresholds.unreliableAppMttfMinutes;
  // Unreliable first (its finding, as the tab's default order puts it), then by crashes and hangs.
  const apps = [...records.apps].sort(
    (a, b) => Number(isUnreliable(b)) - Number(isUnreliable(a)) || b.crashes + b.hangs - (a.crashes + a.hangs) || b.crashes - a.crashes || compareText(a.name, b.name),
  );
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
    if (isUnreliable(app)) {
      findings.push({
        kind: 'unreliable-app',
        subjectId: app.id,
        subjectName: app.name,
        detail: `${plural(app.crashes, 'crash', 'crashes')} and ${plural(app.hangs, 'hang')}; fails every ${app.meanTimeToFailureMinutes} minutes of use on average (threshold ${thresholds.unreliableAppMttfMinutes}).`,
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
