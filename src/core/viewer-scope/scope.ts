/**
 * What a viewer may see when the viewer scope is on (`VIEWER_SCOPE=intune-rbac`): Intune's rules for
 * scope tags, as Microsoft documents them, worked out from the role assignments, their admin groups'
 * members and the scope tags (docs/finding-rules.md, "Viewer scope"). Pure: records in, a scope out.
 *
 * Microsoft's rules (learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags):
 * - "Roles determine what access admins have to which objects. Scope tags determine which objects
 *   admins can see": a role assignment's Members (Groups) "can see Intune objects that also have"
 *   one of its scope tags.
 * - "The default scope tag is automatically added to all untagged objects that support scope tags"
 *   (the built-in tag "Default", id "0").
 * - "If a role assignment has no scope tag, that IT admin can see all objects based on the IT admins
 *   permissions. Admins that have no scope tags essentially have all scope tags."
 * - With several assignments, scope tags "apply to all objects of the same type ... in any of the
 *   user's assignments" (learn.microsoft.com/intune/fundamentals/role-based-access-control/role-based-access-control,
 *   "Multiple role assignments"; the default behaviour merges them): the tags are the union.
 * - Scope (Groups) decide which users and devices the admins may act on, not what they see; this app
 *   takes no action, so they narrow nothing here.
 * - "Roles determine what access admins have to which objects": objects that carry no scope tags
 *   are seen by whoever's role reads their area. A viewer limited to scope tags sees a tenant-wide
 *   report when a role definition of an assignment they hold grants the read permission Microsoft
 *   documents for all of its area (its definition's `seenBy`, report-access.ts); a definition, or its assignments, that could not be
 *   read grants nothing. The same holds for the objects that do carry scope tags: a viewer sees a
 *   scope-tagged report's rows (reports 2, 3, 4) only when their roles read every kind of object it
 *   shows (`readsOfTaggedReport`, report-access.ts); tags without the read show nothing, as in Intune.
 */

import { AREA_READS, READ_AREAS } from './areas.js';
import { TAGGED_REPORT_AREAS } from './report-access.js';
import type { ReadArea } from './areas.js';
import { entraRolesReadingIntune } from './entra-roles.js';

/** The id of Intune's built-in "Default" scope tag (roleScopeTag `isBuiltIn`; every tenant's objects carry "0" until tagged otherwise). */
export const DEFAULT_SCOPE_TAG_ID = '0';

/** One Intune role assignment as the scope reads it (deviceAndAppManagementRoleAssignment, beta). */
export interface RoleAssignmentRecord {
  id: string;
  displayName: string;
  /** The admin groups (`members`): security group ids whose members hold the assignment. */
  memberGroupIds: readonly string[];
  /**
   * The assignment's scope tags (`roleScopeTagIds`, read by `scopeTagIdsOf`); empty when it has none,
   * null when Graph did not send them as a list of tag ids. Only an empty list is "no scope tags" (the
   * whole tenant): a field not sent, or not readable, proves nothing, so such an assignment gives its
   * holders no scope.
   */
  scopeTagIds: readonly string[] | null;
}

export interface ScopeTagRecord {
  id: string;
  displayName: string;
}

/** The direct user members of one admin group (lower-case ids), or why they could not be read: never "no members". */
export type AdminGroupMembers = { state: 'read'; userIds: ReadonlySet<string> } | { state: 'unknown'; reason: string };

/**
 * One Intune role (built-in or custom: both are role definitions, `isBuiltIn` tells them apart), the
 * areas whose read its permissions grant (none, for a role of remote tasks only), and the ids (lower
 * case) of its assignments, or why they could not be read: never "no assignments".
 */
export interface GrantingRole {
  id: string;
  displayName: string;
  isBuiltIn: boolean;
  areas: readonly ReadArea[];
  assignments: { state: 'read'; ids: ReadonlySet<string> } | { state: 'unknown'; reason: string };
}

/** Every Intune role, or why the role definitions could not be read (then no role grants anything). */
export type RoleDefinitions = { state: 'read'; roles: readonly GrantingRole[] } | { state: 'unknown'; reason: string };

/**
 * What one load of the role-based access control reads: the assignments, the tags, the admin
 * groups' members by lower-case id, and the roles that grant a tenant-wide area's read.
 */
export interface RbacRecords {
  assignments: readonly RoleAssignmentRecord[];
  tags: readonly ScopeTagRecord[];
  members: ReadonlyMap<string, AdminGroupMembers>;
  definitions: RoleDefinitions;
}

/**
 * Which areas a viewer's Intune roles read: per area, the roles of their assignments that grant it;
 * per area not granted, why it is not known to be (a role's or the definitions' read failed), for the
 * refusal's words; and the names of the roles behind their assignments, known to be theirs, which a
 * refusal names.
 */
export interface AreaAccess {
  granted: ReadonlyMap<ReadArea, readonly string[]>;
  unknown: ReadonlyMap<ReadArea, string>;
  roles: readonly string[];
}

/**
 * The signed-in viewer: their Entra object id (the token's `oid`) and the template ids of their
 * Microsoft Entra roles (the token's `wids`, read by `entraRoleIdsOf`; absent where no token tells
 * them, as in a Teams message, and then no Entra role counts).
 */
export interface Viewer {
  objectId: string;
  entraRoleIds?: readonly string[];
}

/**
 * What a viewer may see:
 * - `tenant`: everything (an assignment without scope tags, or an Entra role that reads all Intune
 *   data: `entraRoles` names those);
 * - `tags`: objects carrying one of `tagIds`, of the areas their roles read; `key` names
 *   everything a view of the scope shows (the tags, the roles granting each area, why an area is not
 *   known, the roles a refusal names: `viewKey`), the same for every viewer to whom the views show the same;
 * - `none`: nothing, and why, in words for the viewer.
 */
export type ViewerScope =
  | {
      kind: 'tenant';
      assignments: readonly string[];
      entraRoles?: readonly string[];
      /**
       * Present for a viewer whose whole tenant comes from an Intune role assignment without scope
       * tags: the areas their roles read, which alone open a report to them (a tenant-wide one by its
       * area, a tagged one by the reads of all it shows). Absent for the scope off and for an Entra
       * role that reads all Intune data: every report.
       */
      areas?: AreaAccess;
    }
  | {
      kind: 'tags';
      tagIds: ReadonlySet<string>;
      tagNames: readonly string[];
      assignments: readonly string[];
      key: string;
      /**
       * The areas their roles read, or why that is not known. Absent for a channel's scope tag
       * (`scopeOfTag`): its posts show the tagged reports' rows of that tag and no tenant-wide report.
       */
      areas?: AreaAccess;
    }
  | { kind: 'none'; explanation: string };

/** The whole tenant, as every viewer sees it with the viewer scope off. */
export const WHOLE_TENANT: ViewerScope = { kind: 'tenant', assignments: [] };

/**
 * The viewer's scope: first their Microsoft Entra roles (`entraScopeOf`: one that reads all Intune
 * data is the whole tenant, every report); else the assignments whose admin groups hold them as a
 * direct member, and the union of their scope tags. An assignment without tags is every tagged
 * object, its reports and the tenant-wide ones opened by what its roles read (`areas`). A viewer in
 * no assignment sees nothing. An admin group whose members could not be read proves nothing either
 * way: if the viewer holds no other assignment, the explanation says the groups could not be read.
 * An assignment whose scope tags Graph did not send gives nothing either, and the explanation says so.
 */
export function viewerScopeOf(records: RbacRecords, viewer: Viewer): ViewerScope {
  const entra = entraScopeOf(viewer);
  if (entra) return entra;
  const me = viewer.objectId.toLowerCase();
  const held: RoleAssignmentRecord[] = [];
  const unread = new Set<string>();
  /** Assignments the viewer holds whose scope tags Graph did not send. */
  const untold: string[] = [];
  for (const assignment of records.assignments) {
    let holds = false;
    for (const groupId of assignment.memberGroupIds) {
      const members = records.members.get(groupId.toLowerCase());
      if (!members || members.state === 'unknown') unread.add(groupId.toLowerCase());
      else if (members.userIds.has(me)) holds = true;
    }
    if (holds && assignment.scopeTagIds !== null) held.push(assignment);
    else if (holds) untold.push(assignment.displayName);
  }
  if (held.length === 0) {
    const why =
      unread.size > 0
        ? ` The members of ${unread.size === 1 ? 'one admin group' : `${unread.size} admin groups`} could not be read, so whether you are in ${unread.size === 1 ? 'it' : 'them'} is unknown.`
        : '';
    const untoldWhy =
      untold.length > 0
        ? ` Graph did not say which scope tags your role assignment${untold.length === 1 ? '' : 's'} (${untold.sort().join(', ')}) carr${untold.length === 1 ? 'ies' : 'y'} (the field was missing or not a list of tag ids), so it gives you no scope here.`
        : '';
    return {
      kind: 'none',
      explanation:
        (untold.length > 0
          ? 'This app shows you no tenant data'
          : 'You hold no Intune role assignment and no Microsoft Entra role that reads Intune data, so this app shows you no tenant data') +
        ': it shows each viewer what their Intune role assignments (by scope tags) and Entra roles let them see.' +
        why +
        untoldWhy +
        ' Ask an Intune administrator to add you to a role assignment (Tenant administration > Roles), or to give you a Microsoft Entra role that reads Intune data (such as Global Reader).',
    };
  }
  const names = held.map((assignment) => assignment.displayName).sort();
  // "If a role assignment has no scope tag, that IT admin can see all objects based on the IT admins
  // permissions": every tagged object, and a tenant-wide report only as their roles read its area.
  if (held.some((assignment) => assignment.scopeTagIds?.length === 0)) return { kind: 'tenant', assignments: names, areas: areaAccessOf(records.definitions, held) };
  const tagIds = new Set(held.flatMap((assignment) => (assignment.scopeTagIds ?? []).map(String)));
  const byId = new Map(records.tags.map((tag) => [tag.id, tag.displayName]));
  const sorted = [...tagIds].sort();
  const areas = areaAccessOf(records.definitions, held);
  return {
    kind: 'tags',
    tagIds,
    tagNames: sorted.map((id) => byId.get(id) ?? `scope tag ${id}`),
    assignments: names,
    key: viewKey(
      sorted,
      sorted.map((id) => byId.get(id) ?? `scope tag ${id}`),
      areas,
    ),
    areas,
  };
}

/**
 * What names a view of a scope of tags, for the views shared between viewers (src/app/viewer-scopes.ts):
 * everything such a view shows that differs between viewers, so two viewers share a view only when it
 * shows them the same. The tags; per area granted, the roles the notice names; per area not known,
 * the reason the refusal gives; the tags' names, which the notice says (a channel keeps the name a tag
 * had when it was bound, which a rename since makes differ). Never the tag alone, which keys a channel's scope (`scopeOfTag`):
 * that scope opens the tagged reports, while roles that grant nothing open none, so the two must not
 * share a view (a tag id holds no comma, and this key always does).
 */
function viewKey(tagIds: readonly string[], tagNames: readonly string[], areas: AreaAccess): string {
  const granted = [...areas.granted].sort(([a], [b]) => a.localeCompare(b)).map(([area, roles]) => `${area}=${roles.join('+')}`);
  const unknown = [...areas.unknown].sort(([a], [b]) => a.localeCompare(b)).map(([area, reason]) => `${area}?${reason}`);
  // The roles are named by a refusal of a tagged report, so two viewers whose roles differ see different words.
  return JSON.stringify([tagIds.join(','), granted, unknown, areas.roles, tagNames]);
}

/**
 * The whole tenant, when one of the viewer's Entra roles reads all Intune data (entra-roles.ts):
 * an Entra role is assigned tenant-wide and carries no Intune scope tags, so no Intune role
 * assignment is needed, nor read. Null otherwise: their Intune role assignments decide.
 */
export function entraScopeOf(viewer: Viewer): ViewerScope | null {
  const roles = entraRolesReadingIntune(viewer.entraRoleIds ?? []);
  return roles.length > 0 ? { kind: 'tenant', assignments: [], entraRoles: roles } : null;
}

/**
 * The areas the held assignments' roles read. Only the viewer's own assignments count; a role whose
 * assignments could not be read, or definitions that could not be read at all, grant nothing, and
 * say so: unknown is not permission. Every role's assignments are read (load.ts), so a held
 * assignment's role is known even when it grants no area, and a refusal can name it.
 */
function areaAccessOf(definitions: RoleDefinitions, held: readonly RoleAssignmentRecord[]): AreaAccess {
  const granted = new Map<ReadArea, string[]>();
  const unknown = new Map<ReadArea, string>();
  if (definitions.state === 'unknown') {
    for (const area of READ_AREAS) unknown.set(area, definitions.reason);
    return { granted, unknown, roles: [] };
  }
  const heldIds = new Set(held.map((assignment) => assignment.id.toLowerCase()));
  const mine = definitions.roles.filter((role) => role.assignments.state === 'read' && [...role.assignments.ids].some((id) => heldIds.has(id)));
  for (const area of READ_AREAS) {
    const granting = mine.filter((role) => role.areas.includes(area));
    if (granting.length > 0) {
      granted.set(area, granting.map((role) => role.displayName).sort());
      continue;
    }
    const unread = definitions.roles
      .filter((role) => role.areas.includes(area) && role.assignments.state === 'unknown')
      .map((role) => role.displayName)
      .sort();
    if (unread.length > 0)
      unknown.set(
        area,
        `the assignments of ${unread.length === 1 ? 'the role' : 'the roles'} ${unread.join(', ')}, which grant${unread.length === 1 ? 's' : ''} ${AREA_READS[area].permission}, could not be read`,
      );
  }
  return { granted, unknown, roles: [...new Set(mine.map((role) => role.displayName))].sort() };
}

/**
 * Whether a viewer of `scope` may see an object carrying `tagIds` (its `roleScopeTagIds`):
 * - an empty list is the Default tag, which Intune adds to every untagged object that supports tags;
 * - `null` is an object whose tags are not known: one of a type without scope tags (a connector, an
 *   approval policy, an analytics row), or one read without them. Only a viewer who sees the whole
 *   tenant sees it here, object by object; a whole report of a tenant-wide area is opened to a viewer
 *   of tags by their role's read permission instead (scope-report.ts).
 */
export function visibleTo(scope: ViewerScope, tagIds: readonly string[] | null): boolean {
  if (scope.kind === 'tenant') return true;
  if (scope.kind === 'none' || tagIds === null) return false;
  if (tagIds.length === 0) return scope.tagIds.has(DEFAULT_SCOPE_TAG_ID);
  return tagIds.some((id) => scope.tagIds.has(id));
}

/** A scope in a line, for a notice or a log: which tags, or the whole tenant. */
export function describeScope(scope: ViewerScope): string {
  if (scope.kind === 'tenant') return 'the whole tenant';
  if (scope.kind === 'none') return 'nothing';
  return `scope tag${scope.tagNames.length === 1 ? '' : 's'} ${scope.tagNames.join(', ')}`;
}

/**
 * The scope of one scope tag, as a channel's posts for it see the tenant (docs/finding-rules.md,
 * "Viewer scope"): the objects carrying that tag, as an admin whose only assignment has that tag
 * sees them ("Admins in the Member (Groups) can see Intune objects that also have" the assignment's
 * scope tags, learn.microsoft.com/intune/fundamentals/role-based-access-control/scope-tags).
 */
export function scopeOfTag(tag: ScopeTagRecord): Extract<ViewerScope, { kind: 'tags' }> {
  return { kind: 'tags', tagIds: new Set([tag.id]), tagNames: [tag.displayName], assignments: [], key: tag.id };
}

/**
 * The scope an answer takes in a conversation kept to one scope tag, asked by `asker`, who sees that
 * tag (docs/finding-rules.md, "Viewer scope", "A channel's audience"): what both the channel's audience
 * and the asker may see. The tag's objects, as `scopeOfTag`; of the reports, the scope-tagged ones
 * the asker's own roles read (their `areas`, kept only for those reports: a tenant-wide report is
 * never said in such a conversation, whoever asks). So a Europe service desk whose role only reboots
 * devices is refused reports 2, 3 and 4 and "what applies" in a Europe channel as in a chat of their
 * own. An asker without `areas` (an Entra role that reads all Intune data, or the scope off) gets the
 * tag's scope as it is: its tagged reports.
 */
export function scopeOfTagSeenBy(tag: ScopeTagRecord, asker: ViewerScope): ViewerScope {
  const channel = scopeOfTag(tag);
  if (asker.kind === 'none' || !asker.areas) return channel;
  const tagged = <V>(map: ReadonlyMap<ReadArea, V>) => new Map([...map].filter(([area]) => TAGGED_REPORT_AREAS.has(area)));
  const areas: AreaAccess = { granted: tagged(asker.areas.granted), unknown: tagged(asker.areas.unknown), roles: asker.areas.roles };
  return { ...channel, key: viewKey([tag.id], [tag.displayName], areas), areas };
}
