import * as entity from '../entity-properties.js';
import { BOTH, MANAGED_DEVICES_PERMISSIONS } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/** Endpoint analytics (user experience analytics): startup performance and application reliability per device (report 6). */

export const DEVICE_PERFORMANCE = {
  kind: 'collection',
  path: '/deviceManagement/userExperienceAnalyticsDevicePerformance',
  source: 'userExperienceAnalyticsDevicePerformance',
  versions: BOTH,
  permissions: MANAGED_DEVICES_PERMISSIONS,
  workload: 'intune-devices',
  entitySet: 'deviceManagement/userExperienceAnalyticsDevicePerformance',
  navigation: [],
  defaultPageSize: 1000,
  properties: entity.DEVICE_PERFORMANCE,
} as const satisfies SimResource;

export const APP_HEALTH_APPLICATION_PERFORMANCE = {
  kind: 'collection',
  path: '/deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
  source: 'userExperienceAnalyticsAppHealthApplicationPerformance',
  versions: BOTH,
  permissions: MANAGED_DEVICES_PERMISSIONS,
  workload: 'intune-devices',
  entitySet: 'deviceManagement/userExperienceAnalyticsAppHealthApplicationPerformance',
  navigation: [],
  defaultPageSize: 1000,
  properties: entity.APP_HEALTH_APPLICATION_PERFORMANCE,
} as const satisfies SimResource;
