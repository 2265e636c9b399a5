import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { errorText } from '../error-text.js';
import { graphFailureOnly } from '../graph/graph-error.js';
import { isGraphId } from '../graph/graph-id.js';
import type { GraphReader } from '../graph/graph-reader.js';
import { pathFor, selectOf } from '../graph/upstream-read.js';
import { AREA_READS, READ_AREAS } from './areas.js';
import type { ReadArea } from './areas.js';
import { ADMIN_GROUP_MEMBERS_READ, ROLE_ASSIGNMENTS_READ, ROLE_DEFINITION_ASSIGNMENTS_READ, ROLE_DEFINITIONS_READ, ROLE_SCOPE_TAGS_READ } from './reads.js';
import { scopeTagIdsOf } from './scope-tag-ids.js';
import type { AdminGroupMembers, GrantingRole, RbacRecords, RoleAssignmentRecord, RoleDefinitions, ScopeTagRecord } from './scope.js';

/** Held by the compiler to the beta role assignment type: a field Graph does not declare does not compile. */
const ASSIGNMENT_FIELDS: readonly (keyof Beta.DeviceAndAppManagementRoleAssignment)[] = ROLE_ASSIGNMENTS_READ.select;
const TAG_FIELDS: readonly (keyof Beta.RoleScopeTag)[] = ROLE_SCOPE_TAGS_READ.select;
const DEFINITION_FIELDS: readonly (keyof Graph.DeviceAndAppManagementRoleDefinition)[] = ROLE_DEFINITIONS_READ.select;
const DEFINITION_ASSIGNMENT_FIELDS: readonly (keyof Graph.RoleAssignment)[] = ROLE_DEFINITION_ASSIGNMENTS_READ.select;

/** Graph's largest page for a member list (`$top` up to 999, learn.microsoft.com/graph/api/group-list-members). */
const MEMBERS_PAGE = 999;

type MemberItem = { '@odata.type'?: unknown; id?: unknown };

/**
 * One load of what the viewer scope needs (docs/finding-rules.md, "Viewer scope"): the role
 * assignments, the scope tags and the role definitions side by side, then the direct members of
 * every admin group the assignments name. A failure of the assignments or the tags is thrown:
 * without them no viewer's scope is known, and the server then shows no one anything. A group whose
 * members cannot be read is unknown, never "no members"; role definitions that cannot be read open
 * no tenant-wide report to anyone limited to scope tags, and change nothing else.
 */
export async function loadRbacRecords(graph: GraphReader): Promise<RbacRecords> {
  const [assignments, tags, definitions] = await Promise.all([
    graph.getAll<Beta.DeviceAndAppManagementRoleAssignment, RoleAssignmentRecord>(
      ROLE_ASSIGNMENTS_READ.path,
      { query: { $select: ASSIGNMENT_FIELDS.join(',') } },
      (assignment) => ({
        id: String(assignment.id),
        displayName: assignment.displayName ?? String(assignment.id),
        memberGroupIds: strings(assignment.members),
        // A field Graph did not send, or sent in a form that is not a list of tag ids, is not "no
        // scope tags" (scope.ts, `scopeTagIdsOf`): `[1]` must not become `[]`, the whole tenant.
        scopeTagIds: scopeTagIdsOf(assignment.roleScopeTagIds),
      }),
    ),
    graph.getAll<Beta.RoleScopeTag, ScopeTagRecord>(ROLE_SCOPE_TAGS_READ.path, { query: { $select: TAG_FIELDS.join(',') } }, (tag) => ({
      id: String(tag.id),
      displayName: tag.displayName ?? String(tag.id),
    })),
    loadRoleDefinitions(graph),
  ]);
  const groupIds = [...new Set(assignments.flatMap((assignment) => assignment.memberGroupIds.map((id) => id.toLowerCase())))];
  const members = new Map<string, AdminGroupMembers>(await Promise.all(groupIds.map(async (id) => [id, await readAdminGroup(graph, id)] as const)));
  return { assignments, tags, members, definitions };
}

/**
 * Intune's role definitions, built-in and custom alike, and the assignments of every one of them:
 * which role is behind each assignment a viewer holds, so that a role granting no read (remote tasks
 * only) is known to grant none and is named in the refusal, rather than left unknown. The reads are
 * bounded: one list of the definitions, then one read of assignments per definition (a tenant's
 * built-in roles and the custom roles its administrators made), each paged by Graph, through the
 * Graph client's concurrency limit. Throws only for a bug (`graphFailureOnly`): definitions Graph does not give are unknown (no
 * role grants anything, so every permission-gated report is refused with why), and a role whose
 * assignments cannot be read is unknown on its own (it grants nothing to anyone until read).
 */
async function loadRoleDefinitions(graph: GraphReader): Promise<RoleDefinitions> {
  let roles: Omit<GrantingRole, 'assignments'>[];
  try {
    roles = await graph.getAll<Graph.DeviceAndAppManagementRoleDefinition, Omit<GrantingRole, 'assignments'>>(
      ROLE_DEFINITIONS_READ.path,
      { query: { $select: DEFINITION_FIELDS.join(',') } },
      (definition) => ({
        id: String(definition.id),
        displayName: definition.displayName ?? String(definition.id),
        isBuiltIn: definition.isBuiltIn === true,
        areas: areasGranted(definition.rolePermissions),
      }),
    );
  } catch (error) {
    return { state: 'unknown', reason: `Intune's role definitions could not be read (${errorText(graphFailureOnly(error))})` };
  }
  return { state: 'read', roles: await Promise.all(roles.map(async (role) => ({ ...role, assignments: await readRoleAssignments(graph, role.id) }))) };
}

/** The ids (lower case) of one role's assignments, or why they could not be read. */
async function readRoleAssignments(graph: GraphReader, roleId: string): Promise<GrantingRole['assignments']> {
  if (!isGraphId(roleId)) return { state: 'unknown', reason: `its id "${roleId}" is not one Graph's path takes` };
  try {
    const ids = await graph.getAll<Graph.RoleAssignment, string | null>(
      pathFor(ROLE_DEFINITION_ASSIGNMENTS_READ, roleId),
      { query: { $select: DEFINITION_ASSIGNMENT_FIELDS.join(',') } },
      (assignment) => (typeof assignment.id === 'string' ? assignment.id.toLowerCase() : null),
    );
    return { state: 'read', ids: new Set(ids.filter((id): id is string => id !== null)) };
  } catch (error) {
    return { state: 'unknown', reason: errorText(graphFailureOnly(error)) };
  }
}

/**
 * The areas whose read permission a role's permissions grant: an action listed in a resource
 * action's `allowedResourceActions` and in no `notAllowedResourceActions` of the role (resourceAction,
 * learn.microsoft.com/graph/api/resources/intune-rbac-resourceaction: "Allowed Actions", "Not
 * Allowed Actions"). Only the exact action counts: Microsoft documents no wildcard in an Intune
 * role definition, so none is read as one. Permissions Graph did not send grant nothing.
 */
function areasGranted(permissions: Graph.NullableOption<Graph.RolePermission[]> | undefined): ReadArea[] {
  if (!Array.isArray(permissions)) return [];
  const allowed = new Set<string>();
  const denied = new Set<string>();
  for (const permission of permissions) {
    for (const action of Array.isArray(permission?.resourceActions) ? permission.resourceActions : []) {
      for (const name of strings(action?.allowedResourceActions)) allowed.add(name);
      for (const name of strings(action?.notAllowedResourceActions)) denied.add(name);
    }
  }
  return READ_AREAS.filter((area) => allowed.has(AREA_READS[area].action) && !denied.has(AREA_READS[area].action));
}

/** An admin group's direct user members, lower case. Only direct members count: Microsoft does not document nesting for an assignment's admin groups. */
async function readAdminGroup(graph: GraphReader, id: string): Promise<AdminGroupMembers> {
  if (!isGraphId(id)) return { state: 'unknown', reason: `its id "${id}" is not one Graph's member path takes` };
  let items: MemberItem[];
  try {
    items = await graph.getAll<MemberItem>(pathFor(ADMIN_GROUP_MEMBERS_READ, id), {
      query: { $select: selectOf(ADMIN_GROUP_MEMBERS_READ), $top: String(MEMBERS_PAGE) },
    });
  } catch (error) {
    return { state: 'unknown', reason: `its members could not be read (${errorText(graphFailureOnly(error))})` };
  }
  const userIds = new Set<string>();
  for (const item of items) {
    if (item['@odata.type'] === '#microsoft.graph.user' && typeof item.id === 'string') userIds.add(item.id.toLowerCase());
  }
  return { state: 'read', userIds };
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
