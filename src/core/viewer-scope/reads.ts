import type { UpstreamRead } from '../graph/upstream-read.js';

/**
 * The reads the viewer scope makes (docs/finding-rules.md, "Viewer scope"), only when it is turned on
 * (`VIEWER_SCOPE=intune-rbac`): Intune's role assignments and scope tags. Both are beta only: the
 * v1.0 `deviceAndAppManagementRoleAssignment` has no `roleScopeTagIds`, `scopeMembers` or
 * `scopeType`, and v1.0 has no `roleScopeTags` collection (the v1.0 and beta metadata, as the Graph
 * type packages carry them). Then the direct members of the admin groups the assignments name. Beside
 * them, on `/v1.0`, the role definitions, and the assignments of each role, whose permissions open a
 * report or not (areas.ts, and each report's `seenBy`, report-access.ts).
 */

/**
 * `GET /beta/deviceManagement/roleAssignments`
 * (learn.microsoft.com/graph/api/intune-rbac-deviceandappmanagementroleassignment-list?view=graph-rest-beta):
 * its page lists DeviceManagementConfiguration.Read.All and DeviceManagementRBAC.Read.All (and their
 * ReadWrite siblings) for an app; the product asks for DeviceManagementRBAC.Read.All, which report 5
 * already holds. `members` are the admin groups, `roleScopeTagIds` the scope tags, `scopeMembers`,
 * `resourceScopes` and `scopeType` the scope groups.
 */
export const ROLE_ASSIGNMENTS_READ = {
  path: '/beta/deviceManagement/roleAssignments',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-deviceandappmanagementroleassignment-list?view=graph-rest-beta',
  permissions: ['DeviceManagementRBAC.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'members', 'scopeMembers', 'resourceScopes', 'scopeType', 'roleScopeTagIds'],
  optional: false,
  why: 'Who holds which Intune role assignment and with which scope tags: what each viewer may see when the viewer scope is on.',
} as const satisfies UpstreamRead;

/**
 * `GET /beta/deviceManagement/roleScopeTags`
 * (learn.microsoft.com/graph/api/intune-rbac-rolescopetag-list?view=graph-rest-beta): the same
 * permissions as the role assignments. Only the tags' names are read, to tell a viewer which scope
 * they see.
 */
export const ROLE_SCOPE_TAGS_READ = {
  path: '/beta/deviceManagement/roleScopeTags',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-rolescopetag-list?view=graph-rest-beta',
  permissions: ['DeviceManagementRBAC.Read.All', 'DeviceManagementConfiguration.Read.All'],
  select: ['id', 'displayName', 'isBuiltIn'],
  optional: false,
  why: "The scope tags' names, to tell a viewer which scope tags they see.",
} as const satisfies UpstreamRead;

/**
 * `GET /v1.0/groups/{id}/members` (learn.microsoft.com/graph/api/group-list-members): an admin
 * group's direct members, `GroupMember.Read.All` least privileged and `Group.Read.All`, which the
 * product already asks for, among the higher. A group whose members cannot be read is unknown.
 */
export const ADMIN_GROUP_MEMBERS_READ = {
  path: '/v1.0/groups/{id}/members',
  permissionsPage: 'https://learn.microsoft.com/graph/api/group-list-members',
  permissions: ['Group.Read.All'],
  select: ['id'],
  optional: true,
  why: 'The members of the admin groups Intune role assignments name: who holds which assignment.',
} as const satisfies UpstreamRead;

/**
 * `GET /v1.0/deviceManagement/roleDefinitions`
 * (learn.microsoft.com/graph/api/intune-rbac-deviceandappmanagementroledefinition-list): Intune's roles, built-in
 * (`isBuiltIn`) and custom alike, each with its `rolePermissions[].resourceActions[]`
 * (`allowedResourceActions`, `notAllowedResourceActions`; resourceAction,
 * learn.microsoft.com/graph/api/resources/intune-rbac-resourceaction). `DeviceManagementRBAC.Read.All`
 * (or its ReadWrite form), which the product already asks for. Read on `/v1.0`: every field read is
 * declared there.
 */
export const ROLE_DEFINITIONS_READ = {
  path: '/v1.0/deviceManagement/roleDefinitions',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-roledefinition-list',
  permissions: ['DeviceManagementRBAC.Read.All'],
  select: ['id', 'displayName', 'isBuiltIn', 'rolePermissions'],
  optional: true,
  why: 'Which Intune roles grant the read permissions a report needs (endpoint analytics, device configurations, compliance policies, apps, security baselines, managed devices): who among the viewers holding Intune role assignments may see it.',
} as const satisfies UpstreamRead;

/**
 * `GET /v1.0/deviceManagement/roleDefinitions/{id}/roleAssignments`
 * (learn.microsoft.com/graph/api/intune-rbac-roleassignment-list): the assignments of one role, the
 * documented way from a role to its assignments (a role assignment names its role only through its
 * `roleDefinition` navigation property). Read for every role, one read per role definition, so that
 * the role behind each assignment a viewer holds is known; `DeviceManagementRBAC.Read.All`.
 */
export const ROLE_DEFINITION_ASSIGNMENTS_READ = {
  path: '/v1.0/deviceManagement/roleDefinitions/{id}/roleAssignments',
  permissionsPage: 'https://learn.microsoft.com/graph/api/intune-rbac-roleassignment-list',
  permissions: ['DeviceManagementRBAC.Read.All'],
  select: ['id'],
  optional: true,
  why: "The role assignments of each Intune role: which viewers hold it, and so which read permissions each viewer's roles grant.",
} as const satisfies UpstreamRead;

export const VIEWER_SCOPE_READS: readonly UpstreamRead[] = [
  ROLE_ASSIGNMENTS_READ,
  ROLE_SCOPE_TAGS_READ,
  ADMIN_GROUP_MEMBERS_READ,
  ROLE_DEFINITIONS_READ,
  ROLE_DEFINITION_ASSIGNMENTS_READ,
];
