/** Report 6's Graph reads (endpoint analytics' device performance and application reliability), kept to the fields `derive` reads. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { asNumber, asString } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { loadSideBySide } from '../side-by-side.js';
import type { APP_PERFORMANCE_FIELDS, DEVICE_PERFORMANCE_FIELDS } from './reads.js';
import { APP_PERFORMANCE_READ, DEVICE_PERFORMANCE_READ } from './reads.js';
import { selectOf } from '../../graph/upstream-read.js';

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

/** "No failures" in endpoint analytics' mean time to failure (learn.microsoft.com/mem/analytics known issues, CSV mapping). */
export const NO_FAILURES = 2147483647;

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

type DevicePerformance = Pick<Graph.UserExperienceAnalyticsDevicePerformance, (typeof DEVICE_PERFORMANCE_FIELDS)[number]>;
type AppPerformance = Pick<Graph.UserExperienceAnalyticsAppHealthApplicationPerformance, (typeof APP_PERFORMANCE_FIELDS)[number]>;

export async function loadStartup(context: LoadContext): Promise<StartupRecords> {
  const [devices, apps] = await loadSideBySide<[DeviceStartup[], AppReliability[]]>([
    (signal) =>
      readCollection<DevicePerformance, DeviceStartup>(
        context,
        'userExperienceAnalyticsDevicePerformance',
        DEVICE_PERFORMANCE_READ.path,
        { query: { $select: selectOf(DEVICE_PERFORMANCE_READ) }, signal },
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
      readCollection<AppPerformance, AppReliability>(
        context,
        'userExperienceAnalyticsAppHealthApplicationPerformance',
        APP_PERFORMANCE_READ.path,
        { query: { $select: selectOf(APP_PERFORMANCE_READ) }, signal },
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
