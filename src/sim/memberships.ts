import type { SimGraphAccess } from './graph-access.js';
import { hasAnyRole } from './graph-access.js';
import { errorAnswer, headerValue } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { decodeSkipToken, listOption, nextPageLink, sameFilterString } from './odata-query.js';
import type { VersionSegment } from './resources/resource-model.js';
import { GROUP_READ_PERMISSIONS } from './directory.js';
import type { SimGroup, SimTenant } from './tenants/sim-tenant.js';

/**
 * What a user, a device or a group is a member of, and groups found by name: the directory reads
 * "what applies" makes about one subject, served as Microsoft documents them.
 *
 * - `GET /users/{id | userPrincipalName}/transitiveMemberOf`
 *   (learn.microsoft.com/graph/api/user-list-transitivememberof): for another user's memberships an
 *   application needs User.Read.All, or one of the higher permissions the page lists, Group.Read.All
 *   and GroupMember.Read.All among them.
 * - `GET /users/{id | userPrincipalName}/memberOf` (learn.microsoft.com/graph/api/user-list-memberof,
 *   "Permissions for another user's direct memberships"): an application needs Directory.Read.All or
 *   Directory.ReadWrite.All, nothing else; Group.Read.All is refused.
 * - `GET /groups/{id}/memberOf` (learn.microsoft.com/graph/api/group-list-memberof): the group
 *   permissions, GroupMember.Read.All least.
 * - `GET /devices/{id}/memberOf`, `/transitiveMemberOf`, also addressed as
 *   `/devices(deviceId='{deviceId}')/…` (learn.microsoft.com/graph/api/device-list-memberof,
 *   device-list-transitivememberof): Device.Read.All least, Device.ReadWrite.All, Directory.Read.All,
 *   Directory.ReadWrite.All higher; nothing else.
 * - `GET /groups?$filter=displayName eq '…'` (learn.microsoft.com/graph/api/group-list; `eq` on
 *   `displayName` is a default query, no advanced query needed: learn.microsoft.com/graph/aad-advanced-queries).
 *
 * Each list pages at 100 by default and takes `$top` up to 999 (the pages' "default and maximum page
 * sizes are 100 and 999"). `$filter`, `$search`, `$orderby` and an OData cast on a membership list
 * need the `ConsistencyLevel: eventual` header and `$count` (the same pages, "Request headers"):
 * without them Graph answers 400 Request_UnsupportedQuery; the look-alike answers none of them.
 * A group whose membership is hidden is listed only to an app holding Member.Read.Hidden ("Allows
 * the app to read the memberships of hidden groups", learn.microsoft.com/graph/permissions-reference).
 */

/** user-list-transitivememberof, "Permissions for another user's memberships", application. */
export const USER_MEMBERSHIP_PERMISSIONS = ['User.Read.All', 'Directory.Read.All', 'Directory.ReadWrite.All', 'Group.Read.All', 'GroupMember.Read.All'];
/** user-list-memberof, "Permissions for another user's direct memberships", application: Directory.Read.All least, Directory.ReadWrite.All higher. */
export const USER_DIRECT_MEMBERSHIP_PERMISSIONS = ['Directory.Read.All', 'Directory.ReadWrite.All'];
/** device-list-memberof / device-list-transitivememberof, application. */
export const DEVICE_MEMBERSHIP_PERMISSIONS = ['Device.Read.All', 'Device.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

const DEFAULT_PAGE = 100;
const MAX_PAGE = 999;
const ADVANCED = ['$filter', '$search', '$orderby', '$count'];

export interface SimMembershipsOptions {
  origin: string;
  tenant: () => SimTenant;
  access: SimGraphAccess;
}

type Listed = Pick<SimGroup, 'id' | 'displayName'>;

export class SimMemberships {
  constructor(private readonly options: SimMembershipsOptions) {}

  /** The answer for a membership path (after the version segment); undefined for a path that is not one. */
  answer(context: RequestContext, version: VersionSegment, path: string): SimAnswer | undefined {
    if (path === '/groups') return this.groupsByName(context, version);
    const deviceMatch = /^\/devices\(deviceId='([^']+)'\)$/.exec(path);
    if (deviceMatch) return this.entraDevice(context, version, decodeURIComponent(deviceMatch[1]!));
    const match = /^\/(users|groups|devices)(?:\/([^/()]+)|\(deviceId='([^']+)'\))\/(memberOf|transitiveMemberOf)(\/microsoft\.graph\.\w+)?$/.exec(path);
    if (!match) return undefined;
    const [, kind, rawId, rawDeviceId, relation, cast] = match;
    const throttled = this.options.access.admit(context, 'identity');
    if (throttled) return throttled;
    const permissions =
      kind === 'users'
        ? relation === 'memberOf'
          ? USER_DIRECT_MEMBERSHIP_PERMISSIONS
          : USER_MEMBERSHIP_PERMISSIONS
        : kind === 'devices'
          ? DEVICE_MEMBERSHIP_PERMISSIONS
          : GROUP_READ_PERMISSIONS;
    if (!hasAnyRole(context.roles, permissions)) return this.options.access.forbidden(context, 'identity', permissions);
    if (kind === 'groups' && relation === 'transitiveMemberOf') {
      // group-list-transitivememberof: application access needs Directory.Read.All or Directory.ReadWrite.All.
      if (!hasAnyRole(context.roles, ['Directory.Read.All', 'Directory.ReadWrite.All'])) return this.options.access.forbidden(context, 'identity', ['Directory.Read.All']);
    }
    const refused = this.refusedQuery(context, cast !== undefined);
    if (refused) return refused;
    const tenant = this.options.tenant();
    const id = rawId === undefined ? undefined : decodeURIComponent(rawId).toLowerCase();
    let memberId: string | undefined;
    if (kind === 'users') memberId = findUser(tenant, id!);
    else if (kind === 'groups') memberId = tenant.groups.has(id!) && !tenant.deletedGroups?.has(id!) ? id : undefined;
    else {
      const devices = [...(tenant.entraDevices?.values() ?? [])];
      const device =
        rawDeviceId !== undefined ? tenant.entraDevices?.get(decodeURIComponent(rawDeviceId).toLowerCase()) : devices.find((candidate) => candidate.id.toLowerCase() === id);
      memberId = device?.id.toLowerCase();
    }
    if (!memberId) {
      return errorAnswer(
        context,
        404,
        'Request_ResourceNotFound',
        `Resource '${rawId ?? rawDeviceId}' does not exist or one of its queried reference-property objects are not present.`,
      );
    }
    const seesHidden = hasAnyRole(context.roles, ['Member.Read.Hidden']);
    const groups = (relation === 'memberOf' ? directParents(tenant, memberId) : transitiveParents(tenant, memberId)).filter(
      (group) => seesHidden || group.visibility !== 'HiddenMembership',
    );
    return this.page(context, version, path, groups);
  }

  /** `GET /devices(deviceId='…')` (learn.microsoft.com/graph/api/device-get): Device.Read.All; 404 for a device Entra does not have. */
  private entraDevice(context: RequestContext, version: VersionSegment, deviceId: string): SimAnswer {
    const throttled = this.options.access.admit(context, 'identity');
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, DEVICE_MEMBERSHIP_PERMISSIONS)) return this.options.access.forbidden(context, 'identity', DEVICE_MEMBERSHIP_PERMISSIONS);
    const device = this.options.tenant().entraDevices?.get(deviceId.toLowerCase());
    if (!device)
      return errorAnswer(context, 404, 'Request_ResourceNotFound', `Resource '${deviceId}' does not exist or one of its queried reference-property objects are not present.`);
    const select = listOption(context.query.get('$select'));
    const record: Record<string, unknown> = {
      '@odata.context': `${this.options.origin}/${version}/$metadata#devices/$entity`,
      id: device.id,
      deviceId: device.deviceId,
      displayName: device.displayName,
    };
    if (select.length > 0) for (const key of Object.keys(record)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete record[key];
    return { status: 200, body: record };
  }

  /** `$filter`, `$search`, `$orderby`, `$count` or a cast: 400 without ConsistencyLevel eventual and $count; the look-alike answers none of them. */
  private refusedQuery(context: RequestContext, cast: boolean): SimAnswer | undefined {
    const advanced = cast || ADVANCED.some((name) => context.query.has(name));
    if (!advanced) return undefined;
    const eventual = headerValue(context.headers, 'consistencylevel')?.toLowerCase() === 'eventual' && context.query.get('$count') === 'true';
    if (!eventual) return errorAnswer(context, 400, 'Request_UnsupportedQuery', 'Unsupported query: this query needs the ConsistencyLevel header set to eventual and $count=true.');
    return errorAnswer(context, 400, 'BadRequest', 'Advanced queries on membership lists are not answered by this look-alike.');
  }

  /**
   * `GET /groups`, or `?$filter=displayName eq '…'`: the groups of that name, compared without case as
   * Graph compares a directory object's string (`sameFilterString`, odata-query.ts); any other `$filter` refused.
   */
  private groupsByName(context: RequestContext, version: VersionSegment): SimAnswer {
    const throttled = this.options.access.admit(context, 'identity');
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, GROUP_READ_PERMISSIONS)) return this.options.access.forbidden(context, 'identity', GROUP_READ_PERMISSIONS);
    const filter = context.query.get('$filter');
    const match = filter === null ? null : /^displayName eq '((?:[^']|'')*)'$/.exec(filter.trim());
    if ((filter !== null && !match) || context.query.has('$search') || context.query.has('$orderby')) {
      return errorAnswer(context, 400, 'BadRequest', "This look-alike lists groups all, or with $filter=displayName eq '<name>' only.");
    }
    const name = match?.[1]!.replace(/''/g, "'");
    const tenant = this.options.tenant();
    const groups = [...tenant.groups.values()].filter(
      (group) => (name === undefined || sameFilterString(group.displayName, name)) && !tenant.deletedGroups?.has(group.id.toLowerCase()),
    );
    return this.page(context, version, '/groups', groups, false);
  }

  private page(context: RequestContext, version: VersionSegment, listPath: string, groups: readonly Listed[], typed = true): SimAnswer {
    const top = context.query.get('$top');
    const size = top === null ? DEFAULT_PAGE : Number(top);
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE)
      return errorAnswer(context, 400, 'BadRequest', `Invalid value '${top}' for $top: it must be between 1 and ${MAX_PAGE}.`);
    const skipToken = context.query.get('$skiptoken');
    const offset = skipToken === null ? 0 : decodeSkipToken(skipToken, listPath);
    if (offset === undefined) return errorAnswer(context, 400, 'BadRequest', 'The $skiptoken is not valid for this collection.');
    const select = listOption(context.query.get('$select'));
    const value = groups.slice(offset, offset + size).map((group) => {
      const item: Record<string, unknown> = { ...(typed ? { '@odata.type': '#microsoft.graph.group' } : {}), id: group.id, displayName: group.displayName };
      if (select.length > 0) for (const key of Object.keys(item)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete item[key];
      return item;
    });
    const body: Record<string, unknown> = { '@odata.context': `${this.options.origin}/${version}/$metadata#${typed ? 'directoryObjects' : 'groups'}`, value };
    if (offset + size < groups.length) body['@odata.nextLink'] = nextPageLink(this.options.origin, version, listPath, context.query, offset + size);
    return { status: 200, body };
  }
}

/** A user's lower-case id by id or user principal name: the tenant's users, group members and stored managed devices' primary users. */
export function findUser(tenant: SimTenant, wanted: string): string | undefined {
  const explicit = tenant.users?.get(wanted) ?? [...(tenant.users?.values() ?? [])].find((user) => user.userPrincipalName?.toLowerCase() === wanted);
  if (explicit) return explicit.id.toLowerCase();
  if (directParents(tenant, wanted).some((group) => group.members.some((member) => member.type === 'user' && member.id.toLowerCase() === wanted))) return wanted;
  const devices = tenant.collections.managedDevices ?? [];
  for (const device of devices) {
    const userId = typeof device.userId === 'string' ? device.userId.toLowerCase() : '';
    if (userId && (userId === wanted || String(device.userPrincipalName ?? '').toLowerCase() === wanted)) return userId;
  }
  return undefined;
}

/**
 * The groups each member is directly in, by lower-case member id: built once per directory and
 * kept while its groups and their member counts stay the same (a test that changes a tenant's
 * groups between requests changes one or the other), so that a question on a tenant of 25,000
 * groups does not scan every member list per request. Only the look-alike's speed: the answer is
 * the scan's.
 */
const parentIndexes = new WeakMap<Map<string, SimGroup>, { signature: string; parents: Map<string, SimGroup[]> }>();

function directParents(tenant: SimTenant, memberId: string): SimGroup[] {
  let members = 0;
  for (const group of tenant.groups.values()) members += group.members.length;
  const signature = `${tenant.groups.size}/${members}/${tenant.deletedGroups?.size ?? 0}`;
  let index = parentIndexes.get(tenant.groups);
  if (index?.signature !== signature) {
    const parents = new Map<string, SimGroup[]>();
    for (const group of tenant.groups.values()) {
      if (tenant.deletedGroups?.has(group.id.toLowerCase())) continue;
      for (const member of group.members) {
        const key = member.id.toLowerCase();
        const list = parents.get(key);
        if (!list) parents.set(key, [group]);
        else if (!list.includes(group)) list.push(group);
      }
    }
    index = { signature, parents };
    parentIndexes.set(tenant.groups, index);
  }
  return index.parents.get(memberId) ?? [];
}

/** Every group `memberId` is in, directly or through nested groups, each once. */
function transitiveParents(tenant: SimTenant, memberId: string): SimGroup[] {
  const found = new Map<string, SimGroup>();
  let level = [memberId];
  while (level.length > 0) {
    const next: string[] = [];
    for (const id of level) {
      for (const group of directParents(tenant, id)) {
        const key = group.id.toLowerCase();
        if (found.has(key)) continue;
        found.set(key, group);
        next.push(key);
      }
    }
    level = next;
  }
  return [...found.values()];
}
