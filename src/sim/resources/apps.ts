import * as entity from '../entity-properties.js';
import { BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES, BETA_ONLY_SCOPE_TAG_PROPERTIES, BETA_ONLY_MOBILE_APP_RELATIONSHIP_TYPES, BETA_ONLY_MOBILE_APP_TYPES } from '../v1-schema.js';
import { APPS_PERMISSIONS, BOTH, CONFIGURATION_PERMISSIONS, objectAssignments } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/** Intune's apps: the apps, their assignments, and the dependencies and supersedence between them (report 2). */

export const MOBILE_APPS = {
  kind: 'collection',
  path: '/deviceAppManagement/mobileApps',
  source: 'mobileApps',
  versions: BOTH,
  permissions: APPS_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceAppManagement/mobileApps',
  navigation: ['assignments'],
  defaultPageSize: 100,
  v1Omits: { types: new Set(BETA_ONLY_MOBILE_APP_TYPES), nested: BETA_ONLY_ASSIGNMENT_TARGET_PROPERTIES, properties: BETA_ONLY_SCOPE_TAG_PROPERTIES },
  properties: entity.MOBILE_APP,
} as const satisfies SimResource;

/**
 * Win32 dependencies and supersedence, tenant-wide (intune-apps-mobileapprelationship-list,
 * ?view=graph-rest-beta and ?view=graph-rest-1.0: DeviceManagementApps.* or
 * DeviceManagementConfiguration.*). Both segments answer; `/v1.0` declares no subtype, so it leaves
 * every typed record out (v1-schema.ts).
 */
export const MOBILE_APP_RELATIONSHIPS = {
  kind: 'collection',
  path: '/deviceAppManagement/mobileAppRelationships',
  source: 'mobileAppRelationships',
  versions: BOTH,
  permissions: [...APPS_PERMISSIONS, ...CONFIGURATION_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceAppManagement/mobileAppRelationships',
  navigation: [],
  defaultPageSize: 100,
  v1Omits: { types: new Set(BETA_ONLY_MOBILE_APP_RELATIONSHIP_TYPES) },
  properties: entity.MOBILE_APP_RELATIONSHIP,
} as const satisfies SimResource;

export const MOBILE_APP_ASSIGNMENTS = objectAssignments(MOBILE_APPS, entity.MOBILE_APP_ASSIGNMENT);
