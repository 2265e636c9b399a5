import * as entity from '../entity-properties-rbac.js';
import { BETA, BOTH, CONFIGURATION_PERMISSIONS, RBAC_PERMISSIONS } from './resource-model.js';
import type { SimNestedResource, SimResource } from './resource-model.js';

/**
 * Intune's role-based access control: the role assignments, the scope tags and the role definitions
 * with their assignments (the viewer scope, docs/finding-rules.md, "Viewer scope").
 */

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

/**
 * `GET /deviceManagement/roleDefinitions`, on both versions
 * (learn.microsoft.com/graph/api/intune-rbac-deviceandappmanagementroledefinition-list, v1.0 and
 * ?view=graph-rest-beta): `DeviceManagementRBAC.Read.All` or its ReadWrite form only. Built-in roles
 * and custom ones are listed alike (`isBuiltIn`). The `roleAssignments` navigation is returned only
 * when expanded. Graph documents no page size for the list; the look-alike pages it at 100, as it
 * does the role assignments.
 */
export const ROLE_DEFINITIONS = {
  kind: 'collection',
  path: '/deviceManagement/roleDefinitions',
  source: 'roleDefinitions',
  versions: BOTH,
  permissions: RBAC_PERMISSIONS,
  workload: 'intune',
  entitySet: 'deviceManagement/roleDefinitions',
  navigation: ['roleAssignments'],
  defaultPageSize: 100,
  v1Omits: { properties: ['isBuiltInRoleDefinition', 'permissions', 'roleScopeTagIds'] },
  properties: entity.ROLE_DEFINITION,
} as const satisfies SimResource;

/**
 * `GET /deviceManagement/roleDefinitions/{id}/roleAssignments`, on both versions
 * (learn.microsoft.com/graph/api/intune-rbac-roleassignment-list): one role's assignments, the same
 * permissions as the list of roles; an id that is no role is a 404. The items are the tenant's role
 * assignments themselves (deviceAndAppManagementRoleAssignment, a roleAssignment); what only beta
 * declares is left out on `/v1.0`, and `$select` takes the base type's properties.
 */
export const ROLE_DEFINITION_ASSIGNMENTS: SimNestedResource = {
  kind: 'nested',
  path: '/deviceManagement/roleDefinitions/{id}/roleAssignments',
  source: 'roleDefinitions',
  property: 'roleAssignments',
  versions: BOTH,
  permissions: RBAC_PERMISSIONS,
  workload: 'intune',
  entitySet: "deviceManagement/roleDefinitions('{id}')/roleAssignments",
  navigation: [],
  defaultPageSize: 100,
  v1Omits: { properties: ['roleScopeTagIds', 'roleScopeTags', 'scopeMembers', 'scopeType'] },
  properties: entity.ROLE_DEFINITION_ASSIGNMENT,
};
