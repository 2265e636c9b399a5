import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { errorText } from '../error-text.js';
import { isGraphId } from '../graph/graph-id.js';
import type { GraphReader } from '../graph/graph-reader.js';
import { pathFor, selectOf } from '../graph/upstream-read.js';
import { ADMIN_GROUP_MEMBERS_READ, ROLE_ASSIGNMENTS_READ, ROLE_SCOPE_TAGS_READ } from './reads.js';
import type { AdminGroupMembers, RbacRecords, RoleAssignmentRecord, ScopeTagRecord } from './scope.js';

/** Held by the compiler to the beta role assignment type: a field Graph does not declare does not compile. */
const ASSIGNMENT_FIELDS: readonly (keyof Beta.DeviceAndAppManagementRoleAssignment)[] = ROLE_ASSIGNMENTS_READ.select;
const TAG_FIELDS: readonly (keyof Beta.RoleScopeTag)[] = ROLE_SCOPE_TAGS_READ.select;

/** Graph's largest page for a member list (`$top` up to 999, learn.microsoft.com/graph/api/group-list-members). */
const MEMBERS_PAGE = 999;

type MemberItem = { '@odata.type'?: unknown; id?: unknown };

/**
 * One load of what the viewer scope needs (docs/finding-rules.md, "Viewer scope"): the role
 * assignments and the scope tags side by side, then the direct members of every admin group the
 * assignments name. A failure of the assignments or the tags is thrown: without them no viewer's
 * scope is known, and the server then shows no one anything. A group whose members cannot be read
 * is unknown, never "no members".
 */
export async function loadRbacRecords(graph: GraphReader): Promise<RbacRecords> {
  const [assignments, tags] = await Promise.all([
    graph.getAll<Beta.DeviceAndAppManagementRoleAssignment, RoleAssignmentRecord>(
      ROLE_ASSIGNMENTS_READ.path,
      { query: { $select: ASSIGNMENT_FIELDS.join(',') } },
      (assignment) => ({
        id: String(assignment.id),
        displayName: assignment.displayName ?? String(assignment.id),
        memberGroupIds: strings(assignment.members),
        // A field Graph did not send is not "no scope tags" (scope.ts, `scopeTagIds`).
        scopeTagIds: Array.isArray(assignment.roleScopeTagIds) ? strings(assignment.roleScopeTagIds) : null,
      }),
    ),
    graph.getAll<Beta.RoleScopeTag, ScopeTagRecord>(ROLE_SCOPE_TAGS_READ.path, { query: { $select: TAG_FIELDS.join(',') } }, (tag) => ({
      id: String(tag.id),
      displayName: tag.displayName ?? String(tag.id),
    })),
  ]);
  const groupIds = [...new Set(assignments.flatMap((assignment) => assignment.memberGroupIds.map((id) => id.toLowerCase())))];
  const members = new Map<string, AdminGroupMembers>(await Promise.all(groupIds.map(async (id) => [id, await readAdminGroup(graph, id)] as const)));
  return { assignments, tags, members };
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
    return { state: 'unknown', reason: `its members could not be read (${errorText(error)})` };
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
