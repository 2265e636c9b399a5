import type { SimGraphAccess } from './graph-access.js';
import { hasAnyRole } from './graph-access.js';
import { errorAnswer } from './graph-exchange.js';
import type { RequestContext, SimAnswer } from './graph-exchange.js';
import { decodeSkipToken, listOption, nextPageLink } from './odata-query.js';
import type { VersionSegment } from './resources/resource-model.js';
import type { SimGroup, SimTenant } from './tenants/sim-tenant.js';

/**
 * The directory's groups, as the reports look them up: a group (`/groups/{id}`, its members
 * expanded), its member list (`/groups/{id}/members`), and a deleted group
 * (`/directory/deletedItems/{id}`). Served by code of their own, since a group is no stored
 * record: its fields follow its kind, and what an app sees of its members follows its roles.
 */

/** `GET /groups/{id}`: any of these lets an app read a group and its members. */
export const GROUP_READ_PERMISSIONS = ['GroupMember.Read.All', 'Group.Read.All', 'Directory.Read.All', 'Group.ReadWrite.All', 'Directory.ReadWrite.All'];

/**
 * `GET /directory/deletedItems/{id}` for a group: the get page's application permissions
 * (learn.microsoft.com/graph/api/directory-deleteditems-get). GroupMember.Read.All is not among them.
 */
export const DELETED_ITEM_READ_PERMISSIONS = ['Group.Read.All', 'Group.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'];

const MAX_EXPANDED_MEMBERS = 20;

/**
 * How each kind of group reads in `securityEnabled` and `mailEnabled`, with `groupTypes` holding
 * `Unified` for a Microsoft 365 group: the table "Group types in Microsoft Entra ID and Microsoft
 * Graph" (learn.microsoft.com/graph/api/resources/groups-overview). A Microsoft 365 group may be
 * security-enabled or not; the simulator serves the default, not security-enabled.
 */
const GROUP_KIND_FIELDS: Readonly<Record<NonNullable<SimGroup['kind']>, { securityEnabled: boolean; mailEnabled: boolean }>> = {
  security: { securityEnabled: true, mailEnabled: false },
  microsoft365: { securityEnabled: false, mailEnabled: true },
  mailEnabledSecurity: { securityEnabled: true, mailEnabled: true },
  distribution: { securityEnabled: false, mailEnabled: true },
};

export interface SimDirectoryOptions {
  origin: string;
  tenant: () => SimTenant;
  access: SimGraphAccess;
}

export class SimDirectory {
  constructor(private readonly options: SimDirectoryOptions) {}

  /** The answer for a directory path (after the version segment); undefined for a path that is not the directory's. */
  answer(context: RequestContext, version: VersionSegment, path: string): SimAnswer | undefined {
    const groupMatch = path.match(/^\/groups\/([^/]+)$/);
    if (groupMatch) return this.answerGroup(context, version, decodeURIComponent(groupMatch[1]!));
    const membersMatch = path.match(/^\/groups\/([^/]+)\/members$/);
    if (membersMatch) return this.answerGroupMembers(context, version, decodeURIComponent(membersMatch[1]!));
    const deletedMatch = path.match(/^\/directory\/deletedItems\/([^/]+)$/);
    if (deletedMatch) return this.answerDeletedItem(context, version, decodeURIComponent(deletedMatch[1]!));
    return undefined;
  }

  /**
   * A group as `/groups/{id}` and its member list find it: throttled or refused as an identity read,
   * 404 when the directory does not have it (a soft-deleted group is in deleted items, not in
   * /groups: answerDeletedItem).
   */
  private readableGroup(context: RequestContext, id: string): { group: SimGroup } | { answer: SimAnswer } {
    const throttled = this.options.access.admit(context, 'identity');
    if (throttled) return { answer: throttled };
    if (!hasAnyRole(context.roles, GROUP_READ_PERMISSIONS)) return { answer: this.options.access.forbidden(context, 'identity', GROUP_READ_PERMISSIONS) };
    const group = this.options.tenant().deletedGroups?.has(id.toLowerCase()) ? undefined : this.options.tenant().groups.get(id.toLowerCase());
    if (!group) {
      return { answer: errorAnswer(context, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`) };
    }
    return { group };
  }

  private answerGroup(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const found = this.readableGroup(context, id);
    if ('answer' in found) return found.answer;
    const { group } = found;
    const select = listOption(context.query.get('$select'));
    const expand = context.query.get('$expand');
    const record: Record<string, unknown> = {
      '@odata.context': `${this.options.origin}/${version}/$metadata#groups/$entity`,
      id: group.id,
      displayName: group.displayName,
      ...GROUP_KIND_FIELDS[group.kind ?? 'security'],
      groupTypes: [...(group.kind === 'microsoft365' ? ['Unified'] : []), ...(group.dynamic ? ['DynamicMembership'] : [])],
      visibility: group.visibility ?? null,
    };
    if (select.length > 0) {
      for (const key of Object.keys(record)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete record[key];
    }
    if (expand) {
      const navigation = expand.split('(')[0]!.trim();
      if (navigation !== 'members') return errorAnswer(context, 400, 'BadRequest', `Could not find a property named '${navigation}' on type 'microsoft.graph.group'.`);
      // "$expand ... returns a maximum of 20 objects" with no nextLink (learn.microsoft.com/graph/query-parameters).
      // A hidden-membership group shows its members only to an app holding Member.Read.Hidden; to
      // any other it reads as empty (learn.microsoft.com/graph/api/group-list-members, and the
      // group resource's `visibility`).
      const hidden = group.visibility === 'HiddenMembership' && !hasAnyRole(context.roles, ['Member.Read.Hidden']);
      record.members = hidden ? [] : group.members.slice(0, MAX_EXPANDED_MEMBERS).map((member) => ({ '@odata.type': `#microsoft.graph.${member.type}`, id: member.id }));
    }
    return { status: 200, body: record };
  }

  /**
   * One deleted directory object (learn.microsoft.com/graph/api/directory-deleteditems-get): a
   * soft-deleted group with its `deletedDateTime`, restorable for 30 days
   * (learn.microsoft.com/graph/api/resources/directory). Anything else (a live group, one deleted
   * for good, an id never seen) is 404: the page documents 200 only, and an object that is not in
   * the container cannot be returned from it.
   */
  private answerDeletedItem(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const throttled = this.options.access.admit(context, 'identity');
    if (throttled) return throttled;
    if (!hasAnyRole(context.roles, DELETED_ITEM_READ_PERMISSIONS)) return this.options.access.forbidden(context, 'identity', DELETED_ITEM_READ_PERMISSIONS);
    const deleted = this.options.tenant().deletedGroups?.get(id.toLowerCase());
    if (!deleted) {
      return errorAnswer(context, 404, 'Request_ResourceNotFound', `Resource '${id}' does not exist or one of its queried reference-property objects are not present.`);
    }
    const select = listOption(context.query.get('$select'));
    const record: Record<string, unknown> = {
      '@odata.context': `${this.options.origin}/${version}/$metadata#directoryObjects/$entity`,
      '@odata.type': '#microsoft.graph.group',
      id: deleted.id,
      displayName: deleted.displayName,
      deletedDateTime: deleted.deletedDateTime,
      ...GROUP_KIND_FIELDS[deleted.kind ?? 'security'],
      groupTypes: deleted.kind === 'microsoft365' ? ['Unified'] : [],
    };
    if (select.length > 0) {
      for (const key of Object.keys(record)) if (!key.startsWith('@') && key !== 'id' && !select.includes(key)) delete record[key];
    }
    return { status: 200, body: record };
  }

  /**
   * `GET /groups/{id}/members` (learn.microsoft.com/graph/api/group-list-members): the group's direct
   * members as `directoryObject`s with their `@odata.type`. Member types the app may not read (users
   * without User.Read.*, devices without Device.Read.All) come with `id` and `@odata.type` only,
   * every other property null ("When an application queries a relationship that returns a
   * directoryObject type collection…", same page); this app is granted neither. Pages of 100 by
   * default, `$top` up to 999, `$skiptoken` to the next. A hidden membership lists no member to an
   * app without Member.Read.Hidden. `membersFault` answers a group's member list with that status,
   * as a transient Graph failure would (learn.microsoft.com/graph/errors).
   */
  private answerGroupMembers(context: RequestContext, version: VersionSegment, id: string): SimAnswer {
    const found = this.readableGroup(context, id);
    if ('answer' in found) return found.answer;
    const { group } = found;
    if (group.membersFault === 403) return errorAnswer(context, 403, 'Authorization_RequestDenied', 'Insufficient privileges to complete the operation.');
    if (group.membersFault) return errorAnswer(context, group.membersFault, 'generalException', 'An unspecified error has occurred.');
    if (context.query.has('$filter') || context.query.has('$expand')) {
      return errorAnswer(context, 400, 'Request_UnsupportedQuery', 'This query is not supported on group members without advanced query parameters.');
    }
    const top = context.query.get('$top');
    const topValue = top === null ? 100 : Number(top);
    if (!Number.isInteger(topValue) || topValue < 1 || topValue > 999)
      return errorAnswer(context, 400, 'BadRequest', `Invalid value '${top}' for $top: it must be between 1 and 999.`);
    const listPath = `/groups/${group.id}/members`;
    const skipToken = context.query.get('$skiptoken');
    const offset = skipToken === null ? 0 : decodeSkipToken(skipToken, listPath);
    if (offset === undefined) return errorAnswer(context, 400, 'BadRequest', 'The $skiptoken is not valid for this collection.');
    const hidden = group.visibility === 'HiddenMembership' && !hasAnyRole(context.roles, ['Member.Read.Hidden']);
    const all = hidden ? [] : group.members;
    const select = listOption(context.query.get('$select'));
    const value = all.slice(offset, offset + topValue).map((member) => {
      const item: Record<string, unknown> = { '@odata.type': `#microsoft.graph.${member.type}`, id: member.id };
      for (const key of select) if (key !== 'id') item[key] = null;
      return item;
    });
    const body: Record<string, unknown> = { '@odata.context': `${this.options.origin}/${version}/$metadata#directoryObjects`, value };
    if (offset + topValue < all.length) {
      body['@odata.nextLink'] = nextPageLink(this.options.origin, version, listPath, context.query, offset + topValue);
    }
    return { status: 200, body };
  }
}
