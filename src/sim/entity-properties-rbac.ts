/**
 * The properties `$select` may name on Intune's role-based access control types, per schema
 * version (entity-properties.ts says why declared lists, and how the compiler holds them).
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { propertiesOf } from './declared-properties.js';
import type { DeclaredProperties } from './declared-properties.js';

/**
 * `deviceManagement/roleAssignments` holds `deviceAndAppManagementRoleAssignment` on both versions.
 * v1.0 declares only `members` beside the base type's fields; beta adds `roleScopeTagIds`,
 * `roleScopeTags`, `scopeMembers` and `scopeType` (the v1.0 and beta metadata), so a v1.0 `$select`
 * of the scope tags is a 400, as Graph answers it.
 */
export const ROLE_ASSIGNMENT: DeclaredProperties = {
  type: 'deviceAndAppManagementRoleAssignment',
  'v1.0': propertiesOf<Graph.DeviceAndAppManagementRoleAssignment>()(['description', 'displayName', 'id', 'members', 'resourceScopes', 'roleDefinition']),
  beta: propertiesOf<Beta.DeviceAndAppManagementRoleAssignment>()([
    'description',
    'displayName',
    'id',
    'members',
    'resourceScopes',
    'roleDefinition',
    'roleScopeTagIds',
    'roleScopeTags',
    'scopeMembers',
    'scopeType',
  ]),
};

/** `roleScopeTag`: beta only (v1.0 has no `roleScopeTags` collection). */
export const ROLE_SCOPE_TAG: DeclaredProperties = {
  type: 'roleScopeTag',
  beta: propertiesOf<Beta.RoleScopeTag>()(['assignments', 'description', 'displayName', 'id', 'isBuiltIn']),
};

/**
 * `deviceManagement/roleDefinitions` holds `deviceAndAppManagementRoleDefinition`, which adds nothing
 * to `roleDefinition` (learn.microsoft.com/graph/api/resources/intune-rbac-deviceandappmanagementroledefinition):
 * v1.0 declares `rolePermissions` (each `resourceActions`), `isBuiltIn` and the `roleAssignments`
 * navigation; beta adds `isBuiltInRoleDefinition`, the deprecated `permissions` and `roleScopeTagIds`.
 */
export const ROLE_DEFINITION: DeclaredProperties = {
  type: 'deviceAndAppManagementRoleDefinition',
  'v1.0': propertiesOf<Graph.DeviceAndAppManagementRoleDefinition>()(['description', 'displayName', 'id', 'isBuiltIn', 'roleAssignments', 'rolePermissions']),
  beta: propertiesOf<Beta.DeviceAndAppManagementRoleDefinition>()([
    'description',
    'displayName',
    'id',
    'isBuiltIn',
    'isBuiltInRoleDefinition',
    'permissions',
    'roleAssignments',
    'rolePermissions',
    'roleScopeTagIds',
  ]),
};

/**
 * A role definition's `roleAssignments` are of the base type `roleAssignment`
 * (learn.microsoft.com/graph/api/intune-rbac-roleassignment-list): v1.0 declares `resourceScopes` and
 * the `roleDefinition` navigation beside the entity's fields; beta adds `scopeMembers` and `scopeType`.
 */
export const ROLE_DEFINITION_ASSIGNMENT: DeclaredProperties = {
  type: 'roleAssignment',
  'v1.0': propertiesOf<Graph.RoleAssignment>()(['description', 'displayName', 'id', 'resourceScopes', 'roleDefinition']),
  beta: propertiesOf<Beta.RoleAssignment>()(['description', 'displayName', 'id', 'resourceScopes', 'roleDefinition', 'scopeMembers', 'scopeType']),
};
