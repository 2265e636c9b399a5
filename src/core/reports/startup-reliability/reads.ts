/** Report 6's Graph reads: endpoint analytics' device performance and application reliability. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type { UpstreamRead } from '../../graph/upstream-read.js';

/**
 * The fields each read asks for (`$select`) and the projection may read: its record type is picked
 * from the same list, so a field the projection reads and the request leaves out does not compile.
 */
export const DEVICE_PERFORMANCE_FIELDS = [
  'id',
  'deviceName',
  'model',
  'manufacturer',
  'diskType',
  'coreBootTimeInMs',
  'groupPolicyBootTimeInMs',
  'coreLoginTimeInMs',
  'groupPolicyLoginTimeInMs',
  'responsiveDesktopTimeInMs',
  'blueScreenCount',
  'restartCount',
  'healthStatus',
] as const satisfies readonly (keyof Graph.UserExperienceAnalyticsDevicePerformance)[];
export const APP_PERFORMANCE_FIELDS = [
  'id',
  'appDisplayName',
  'appName',
  'appPublisher',
  'appCrashCount',
  'appHangCount',
  'activeDeviceCount',
  'meanTimeToFailureInMinutes',
  'appHealthScore',
] as const satisfies readonly (keyof Graph.UserExperienceAnalyticsAppHealthApplicationPerformance)[];

/** learn.microsoft.com/graph/api/intune-devices-userexperienceanalyticsdeviceperformance-list: DeviceManagementManagedDevices.Read.All. */
export const DEVICE_PERFORMANCE_READ = {
  path: '/v1.0/deviceManagement/userExperienceAnalyticsDevicePerformance',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-userexperienceanalyticsdeviceperformance-list',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: DEVICE_PERFORMANCE_FIELDS,
  optional: false,
  why: "Each device's boot and sign-in times, blue screens and restarts.",
} as const satisfies UpstreamRead;

/** learn.microsoft.com/graph/api/intune-devices-userexperienceanalyticsapphealthapplicationperformance-list: DeviceManagementManagedDevices.Read.All. */
export const APP_PERFORMANCE_READ = {
  path: '/v1.0/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-devices-userexperienceanalyticsapphealthapplicationperformance-list',
  permissions: ['DeviceManagementManagedDevices.Read.All'],
  select: APP_PERFORMANCE_FIELDS,
  optional: false,
  why: "Each application's crashes, hangs and mean time to failure.",
} as const satisfies UpstreamRead;

export const STARTUP_READS: readonly UpstreamRead[] = [DEVICE_PERFORMANCE_READ, APP_PERFORMANCE_READ];
