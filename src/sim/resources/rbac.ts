import * as entity from '../entity-properties.js';
import { BETA, BOTH, CONFIGURATION_PERMISSIONS, RBAC_PERMISSIONS } from './resource-model.js';
import type { SimResource } from './resource-model.js';

/** Intune's role-based access control: the role assignments and the scope tags (the viewer scope, docs/finding-rules.md, "Viewer scope"). */

/**
 * `GET /deviceManagement/roleAssignments`, on both versions
 * (learn.microsoft.com/graph/api/intune-rbac-deviceandappmanagementroleassignment-list, v1.0 and
 * ?view=graph-rest-beta): DeviceManagementConfiguration.Read.All or DeviceManagementRBAC.Read.All
 * (and their ReadWrite siblings) for an app. `/v1.0` does not return what only beta declares:
 * `roleScopeTagIds`, `scopeMembers` and `scopeType` (the v1.0 metadata's
 * deviceAndAppManagementRoleAssignment has `members` beside roleAssignment's fields only). Graph
 * documents no page size for the list; the look-alike pages it at 100, as it does report 5's lists.
 */
export const ROLE_ASSIGNMENTS = {
  kind: 'collection',
  path: '/deviceManagement/roleAssignments',
  source: 'roleAssignments',
  versions: BOTH,
  permissions: [...CONFIGURATION_PERMISSIONS, ...RBAC_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceManagement/roleAssignments',
  navigation: [],
  defaultPageSize: 100,
  v1Omits: { properties: ['roleScopeTagIds', 'scopeMembers', 'scopeType'] },
  properties: entity.ROLE_ASSIGNMENT,
} as const satisfies SimResource;

/**
 * `GET /beta/deviceManagement/roleScopeTags`
 * (learn.microsoft.com/graph/api/intune-rbac-rolescopetag-list?view=graph-rest-beta): beta only,
 * the same permissions as the role assignments. The built-in "Default" tag has id "0".
 */
export const ROLE_SCOPE_TAGS = {
  kind: 'collection',
  path: '/deviceManagement/roleScopeTags',
  source: 'roleScopeTags',
  versions: BETA,
  permissions: [...CONFIGURATION_PERMISSIONS, ...RBAC_PERMISSIONS],
  workload: 'intune',
  entitySet: 'deviceManagement/roleScopeTags',
  navigation: [],
  defaultPageSize: 100,
  properties: entity.ROLE_SCOPE_TAG,
} as const satisfies SimResource;
