/** Report 6's records in the demo tenant, typed against the Graph type packages. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { asDemoRecord } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';
import { NO_FAILURES } from './load.js';

export interface StartupTimes {
  coreBootTimeInMs: number;
  groupPolicyBootTimeInMs: number;
  coreLoginTimeInMs: number;
  groupPolicyLoginTimeInMs: number;
  responsiveDesktopTimeInMs: number;
}

export function devicePerformance(value: {
  id: string;
  deviceName: string;
  model: string;
  manufacturer: string;
  diskType: Graph.DiskType;
  times: StartupTimes;
  blueScreenCount: number;
  restartCount: number;
  startupPerformanceScore: number;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    deviceName: value.deviceName,
    model: value.model,
    manufacturer: value.manufacturer,
    diskType: value.diskType,
    operatingSystemVersion: '10.0.22631.4460',
    ...value.times,
    bootScore: value.startupPerformanceScore,
    loginScore: value.startupPerformanceScore,
    startupPerformanceScore: value.startupPerformanceScore,
    modelStartupPerformanceScore: -1,
    healthStatus: value.startupPerformanceScore < 50 ? 'needsAttention' : 'meetingGoals',
    blueScreenCount: value.blueScreenCount,
    averageBlueScreens: value.blueScreenCount / 30,
    restartCount: value.restartCount,
    averageRestarts: value.restartCount / 30,
    deviceCount: 1,
  } satisfies Graph.UserExperienceAnalyticsDevicePerformance);
}

/** Endpoint analytics' "no failures" value for mean time to failure (Int32.MaxValue). */
export const NO_FAILURES_MTTF = NO_FAILURES;

export function appHealthPerformance(value: {
  id: string;
  appName: string;
  appDisplayName: string;
  appPublisher: string;
  appCrashCount: number;
  appHangCount: number;
  activeDeviceCount: number;
  meanTimeToFailureInMinutes: number;
  appHealthScore: number;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    appName: value.appName,
    appDisplayName: value.appDisplayName,
    appPublisher: value.appPublisher,
    appCrashCount: value.appCrashCount,
    appHangCount: value.appHangCount,
    activeDeviceCount: value.activeDeviceCount,
    appUsageDuration: value.activeDeviceCount * 600,
    meanTimeToFailureInMinutes: value.meanTimeToFailureInMinutes,
    appHealthScore: value.appHealthScore,
  } satisfies Graph.UserExperienceAnalyticsAppHealthApplicationPerformance);
}
