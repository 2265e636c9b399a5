import { describe, expect, it } from 'vitest';
import { ENTRA_INTUNE_ROLES, ENTRA_ROLE_IDS, entraRoleIdsOf } from '../../../src/core/viewer-scope/entra-roles.js';
import { reportOpensTo } from '../../../src/core/viewer-scope/scope-report.js';
import { ROW_SCOPE_TAGS_KEY, rowScopeTags, scopeTagsCell } from '../../../src/core/viewer-scope/scope-tag-ids.js';
import { DEFAULT_SCOPE_TAG_ID, describeScope, entraScopeOf, scopeOfTag, scopeOfTagSeenBy, viewerScopeOf, visibleTo } from '../../../src/core/viewer-scope/scope.js';
import { scopeTagIdsOf } from '../../../src/core/viewer-scope/scope-tag-ids.js';
import type { ReadArea } from '../../../src/core/viewer-scope/areas.js';
import type { AdminGroupMembers, GrantingRole, RbacRecords, RoleAssignmentRecord, RoleDefinitions, ViewerScope } from '../../../src/core/viewer-scope/scope.js';

const CENTRAL = 'c0000000-0000-4000-8000-000000000001';
const REGIONAL = 'c0000000-0000-4000-8000-000000000002';
const NOBODY = 'c0000000-0000-4000-8000-000000000003';
const CENTRAL_GROUP = 'a0000000-0000-4000-8000-000000000001';
const EUROPE_GROUP = 'a0000000-0000-4000-8000-000000000002';
const SECRET_GROUP = 'a0000000-0000-4000-8000-000000000003';

const read = (...userIds: string[]): AdminGroupMembers => ({ state: 'read', userIds: new Set(userIds) });

function records(assignments: RoleAssignmentRecord[], members: Array<[string, AdminGroupMembers]>, definitions: RoleDefinitions = { state: 'read', roles: [] }): RbacRecords {
  return {
    definitions,
    assignments,
    tags: [
      { id: '0', displayName: 'Default' },
      { id: '1', displayName: 'Europe' },
      { id: '2', displayName: 'Americas' },
    ],
    members: new Map(members),
  };
}

const central: RoleAssignmentRecord = { id: 'ra-1', displayName: 'Central IT', memberGroupIds: [CENTRAL_GROUP], scopeTagIds: [] };
const europe: RoleAssignmentRecord = { id: 'ra-2', displayName: 'Europe IT', memberGroupIds: [EUROPE_GROUP], scopeTagIds: ['1'] };
const americas: RoleAssignmentRecord = { id: 'ra-3', displayName: 'Americas readers', memberGroupIds: [EUROPE_GROUP], scopeTagIds: ['2', '0'] };

describe('a viewer’s Intune scope', () => {
  it('an assignment without scope tags sees every tagged object of the tenant (“admins that have no scope tags essentially have all scope tags”), and tenant-wide areas only as its roles read them', () => {
    const scope = viewerScopeOf(
      records(
        [central, europe],
        [
          [CENTRAL_GROUP, read(CENTRAL)],
          [EUROPE_GROUP, read(REGIONAL)],
        ],
      ),
      { objectId: CENTRAL },
    );
    expect(scope).toEqual({ kind: 'tenant', assignments: ['Central IT'], areas: { granted: new Map(), unknown: new Map(), roles: [] } });
    expect(visibleTo(scope, null)).toBe(true);
    expect(visibleTo(scope, ['1'])).toBe(true);
  });

  it('a regional viewer sees the union of the tags of every assignment they hold, named', () => {
    const scope = viewerScopeOf(
      records(
        [central, europe, americas],
        [
          [CENTRAL_GROUP, read(CENTRAL)],
          [EUROPE_GROUP, read(REGIONAL)],
        ],
      ),
      {
        objectId: REGIONAL.toUpperCase(),
      },
    );
    expect(scope.kind).toBe('tags');
    if (scope.kind !== 'tags') return;
    expect([...scope.tagIds].sort()).toEqual(['0', '1', '2']);
    expect(scope.tagNames).toEqual(['Default', 'Europe', 'Americas']);
    expect(scope.key).toBe(JSON.stringify(['0,1,2', [], [], [], ['Default', 'Europe', 'Americas']]));
    expect(scope.assignments).toEqual(['Americas readers', 'Europe IT']);
    expect(describeScope(scope)).toBe('scope tags Default, Europe, Americas');
  });

  it('an object is seen when it carries one of the tags; an untagged one is Default; one whose tags are unknown is seen by the whole-tenant viewer only', () => {
    const scope = viewerScopeOf(records([europe], [[EUROPE_GROUP, read(REGIONAL)]]), { objectId: REGIONAL });
    expect(visibleTo(scope, ['1'])).toBe(true);
    expect(visibleTo(scope, ['2', '1'])).toBe(true);
    expect(visibleTo(scope, ['2'])).toBe(false);
    expect(visibleTo(scope, [DEFAULT_SCOPE_TAG_ID])).toBe(false);
    expect(visibleTo(scope, [])).toBe(false);
    expect(visibleTo(scope, null)).toBe(false);
    const withDefault = viewerScopeOf(records([americas], [[EUROPE_GROUP, read(REGIONAL)]]), { objectId: REGIONAL });
    expect(visibleTo(withDefault, [])).toBe(true);
  });

  it('a viewer in no assignment sees nothing, and is told why in plain words', () => {
    const scope = viewerScopeOf(
      records(
        [central, europe],
        [
          [CENTRAL_GROUP, read(CENTRAL)],
          [EUROPE_GROUP, read(REGIONAL)],
        ],
      ),
      { objectId: NOBODY },
    );
    expect(scope.kind).toBe('none');
    if (scope.kind !== 'none') return;
    expect(scope.explanation).toMatch(/^You hold no Intune role assignment/);
    expect(scope.explanation).not.toMatch(/could not be read/);
    expect(visibleTo(scope, null)).toBe(false);
    expect(visibleTo(scope, ['0'])).toBe(false);
  });

  it('an admin group whose members could not be read proves nothing: no scope, and the explanation says so', () => {
    const hidden: RoleAssignmentRecord = { id: 'ra-4', displayName: 'Hidden', memberGroupIds: [SECRET_GROUP], scopeTagIds: [] };
    const scope = viewerScopeOf(records([hidden], [[SECRET_GROUP, { state: 'unknown', reason: 'hidden membership' }]]), { objectId: CENTRAL });
    expect(scope.kind).toBe('none');
    if (scope.kind === 'none') expect(scope.explanation).toMatch(/members of one admin group could not be read/);
  });

  it('an assignment whose scope tags Graph did not send gives no scope, never the whole tenant, and the explanation says so', () => {
    const untold: RoleAssignmentRecord = { ...central, scopeTagIds: null };
    const scope = viewerScopeOf(records([untold], [[CENTRAL_GROUP, read(CENTRAL)]]), { objectId: CENTRAL });
    expect(scope.kind).toBe('none');
    if (scope.kind === 'none') {
      expect(scope.explanation).toMatch(/^This app shows you no tenant data/);
      expect(scope.explanation).toContain('Graph did not say which scope tags your role assignment (Central IT) carries');
    }
    // Beside an assignment whose tags are known, only the known one counts.
    const both = viewerScopeOf(
      records(
        [untold, europe],
        [
          [CENTRAL_GROUP, read(CENTRAL)],
          [EUROPE_GROUP, read(CENTRAL)],
        ],
      ),
      { objectId: CENTRAL },
    );
    expect(both.kind === 'tags' && both.key).toBe(JSON.stringify(['1', [], [], [], ['Europe']]));
  });

  it('scope groups narrow nothing the viewer sees: only members and tags decide', () => {
    const scoped = { ...europe, scopeGroupIds: ['some-group'] } as RoleAssignmentRecord;
    const scope = viewerScopeOf(records([scoped], [[EUROPE_GROUP, read(REGIONAL)]]), { objectId: REGIONAL });
    expect(scope.kind === 'tags' && scope.key).toBe(JSON.stringify(['1', [], [], [], ['Europe']]));
  });
});

describe('the tenant-wide areas a viewer limited to scope tags may read (role definitions)', () => {
  const analyticsReader = (assignments: GrantingRole['assignments']): GrantingRole => ({
    id: 'rd-1',
    displayName: 'Read Only Operator',
    isBuiltIn: true,
    areas: ['endpointAnalytics'],
    assignments,
  });
  const members: Array<[string, AdminGroupMembers]> = [
    [CENTRAL_GROUP, read(CENTRAL)],
    [EUROPE_GROUP, read(REGIONAL)],
  ];

  it('a role of an assignment the viewer holds grants the area, named, and the key tells the two sets apart', () => {
    const scope = viewerScopeOf(records([europe], members, { state: 'read', roles: [analyticsReader({ state: 'read', ids: new Set(['ra-2']) })] }), {
      objectId: REGIONAL,
    });
    expect(scope.kind === 'tags' && [...scope.areas!.granted]).toEqual([['endpointAnalytics', ['Read Only Operator']]]);
    expect(scope.kind === 'tags' && scope.key).toBe(JSON.stringify(['1', ['endpointAnalytics=Read Only Operator'], [], ['Read Only Operator'], ['Europe']]));
  });

  it('only the assignments the viewer holds count: a role held by someone else grants them nothing', () => {
    const scope = viewerScopeOf(records([central, europe], members, { state: 'read', roles: [analyticsReader({ state: 'read', ids: new Set(['ra-1']) })] }), {
      objectId: REGIONAL,
    });
    expect(scope.kind === 'tags' && scope.areas!.granted.size).toBe(0);
    expect(scope.kind === 'tags' && scope.areas!.unknown.size).toBe(0);
    // Not the key of a channel's scope of the same tag, which opens the tagged reports: roles that grant nothing open none, and the two never share a view.
    expect(scope.kind === 'tags' && scope.key).toBe(JSON.stringify(['1', [], [], [], ['Europe']]));
    expect(scope.kind === 'tags' && scope.key).not.toBe((scopeOfTag({ id: '1', displayName: 'Europe' }) as { key: string }).key);
  });

  it('unknown is not permission: definitions not read, or a granting role whose assignments were not read, grant nothing and say why', () => {
    const unread = viewerScopeOf(records([europe], members, { state: 'unknown', reason: "Intune's role definitions could not be read (503)" }), { objectId: REGIONAL });
    expect(unread.kind === 'tags' && unread.areas!.granted.size).toBe(0);
    expect(unread.kind === 'tags' && unread.areas!.unknown.get('endpointAnalytics')).toMatch(/role definitions could not be read/);
    const roleUnread = viewerScopeOf(records([europe], members, { state: 'read', roles: [analyticsReader({ state: 'unknown', reason: '500' })] }), {
      objectId: REGIONAL,
    });
    expect(roleUnread.kind === 'tags' && roleUnread.areas!.granted.size).toBe(0);
    expect(roleUnread.kind === 'tags' && roleUnread.areas!.unknown.get('endpointAnalytics')).toMatch(/assignments of the role Read Only Operator.*could not be read/);
  });
});

describe('Microsoft Entra roles (the token’s wids), by Microsoft’s table of Entra roles with Intune access', () => {
  const none = records([europe], [[EUROPE_GROUP, read(REGIONAL)]]);

  it('Global Administrator, Intune Administrator and the roles that read all Intune data see the whole tenant, with no Intune role assignment', () => {
    for (const [id, role] of Object.entries(ENTRA_INTUNE_ROLES).filter(([, role]) => role.intuneData !== 'none')) {
      expect(viewerScopeOf(none, { objectId: NOBODY, entraRoleIds: [id] }), role.displayName).toEqual({ kind: 'tenant', assignments: [], entraRoles: [role.displayName] });
      expect(entraScopeOf({ objectId: NOBODY, entraRoleIds: [id.toUpperCase()] })).toEqual({ kind: 'tenant', assignments: [], entraRoles: [role.displayName] });
    }
    expect(
      Object.values(ENTRA_INTUNE_ROLES)
        .filter((role) => role.intuneData !== 'none')
        .map((role) => role.displayName)
        .sort(),
    ).toEqual(['Global Administrator', 'Global Reader', 'Helpdesk Administrator', 'Intune Administrator', 'Security Administrator', 'Security Operator', 'Security Reader']);
    // An Entra role is tenant-wide: it widens a viewer whose Intune assignments are limited to tags.
    expect(viewerScopeOf(none, { objectId: REGIONAL, entraRoleIds: [ENTRA_ROLE_IDS.globalReader] })).toMatchObject({ kind: 'tenant', entraRoles: ['Global Reader'] });
  });

  it('a role whose “All Intune data” is None (audit data at most), or one not in the table, opens nothing: their Intune assignments decide', () => {
    for (const [id, role] of Object.entries(ENTRA_INTUNE_ROLES).filter(([, role]) => role.intuneData === 'none')) {
      expect(entraScopeOf({ objectId: NOBODY, entraRoleIds: [id] }), role.displayName).toBeNull();
      expect(viewerScopeOf(none, { objectId: NOBODY, entraRoleIds: [id] }).kind).toBe('none');
    }
    // User Administrator: not in the table.
    expect(viewerScopeOf(none, { objectId: NOBODY, entraRoleIds: ['fe930be7-5e62-47db-91af-98c3a49a38b1'] }).kind).toBe('none');
    expect(viewerScopeOf(none, { objectId: REGIONAL, entraRoleIds: [ENTRA_ROLE_IDS.reportsReader] })).toMatchObject({ kind: 'tags', tagNames: ['Europe'] });
  });

  it('the claim: only GUID strings are role ids; anything else is left out, never read as a role', () => {
    expect(entraRoleIdsOf([ENTRA_ROLE_IDS.intuneAdministrator.toUpperCase(), ENTRA_ROLE_IDS.globalReader, ENTRA_ROLE_IDS.globalReader])).toEqual(
      [ENTRA_ROLE_IDS.intuneAdministrator, ENTRA_ROLE_IDS.globalReader].sort(),
    );
    for (const claim of [
      undefined,
      null,
      ENTRA_ROLE_IDS.globalAdministrator,
      { 0: ENTRA_ROLE_IDS.globalAdministrator },
      [1],
      [null],
      [[ENTRA_ROLE_IDS.globalAdministrator]],
      [`${ENTRA_ROLE_IDS.globalAdministrator} `],
      ['Global Administrator'],
    ])
      expect(entraRoleIdsOf(claim), JSON.stringify(claim)).toEqual([]);
  });

  it('the explanation to a viewer of neither names both ways in, and no longer says Entra roles are not read', () => {
    const scope = viewerScopeOf(none, { objectId: NOBODY, entraRoleIds: [ENTRA_ROLE_IDS.reportsReader] });
    expect(scope.kind === 'none' && scope.explanation).toMatch(/^You hold no Intune role assignment and no Microsoft Entra role that reads Intune data/);
    expect(scope.kind === 'none' && scope.explanation).not.toMatch(/not read by this app/);
  });
});

describe('scope tags that cannot be read are unknown: they grant nothing and show nothing', () => {
  it('only a list of non-empty id strings is read; anything else is null, never [] (no tags: the whole tenant, or Default)', () => {
    expect(scopeTagIdsOf([])).toEqual([]);
    expect(scopeTagIdsOf(['0', '1'])).toEqual(['0', '1']);
    for (const value of [undefined, null, '0', 0, {}, [1], [null], [2], ['1', 2], [''], ['1,2'], [['1']]]) expect(scopeTagIdsOf(value), JSON.stringify(value)).toBeNull();
  });

  it('an object tagged [2], [null] or not a list is not Default: its row carries no known tags, and only a whole-tenant viewer sees it', () => {
    const defaultViewer: ViewerScope = { kind: 'tags', tagIds: new Set(['0', '1']), tagNames: ['Default', 'Europe'], assignments: ['x'], key: '0,1' };
    for (const value of [[2], [null], '0', { 0: '1' }]) {
      expect(scopeTagsCell(value), JSON.stringify(value)).toBeNull();
      expect(visibleTo(defaultViewer, rowScopeTags({ id: 'x', [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(value) }))).toBe(false);
    }
    expect(scopeTagsCell([])).toBe('');
    expect(visibleTo(defaultViewer, rowScopeTags({ id: 'x', [ROW_SCOPE_TAGS_KEY]: scopeTagsCell([]) }))).toBe(true);
  });

  it('an assignment whose tags were not read gives its holder nothing, even beside an assignment of tags', () => {
    const unreadable: RoleAssignmentRecord = { id: 'ra-9', displayName: 'Everything?', memberGroupIds: [EUROPE_GROUP], scopeTagIds: null };
    const alone = viewerScopeOf(records([unreadable], [[EUROPE_GROUP, read(REGIONAL)]]), { objectId: REGIONAL });
    expect(alone.kind).toBe('none');
    const beside = viewerScopeOf(records([unreadable, europe], [[EUROPE_GROUP, read(REGIONAL)]]), { objectId: REGIONAL });
    expect(beside).toMatchObject({ kind: 'tags', tagNames: ['Europe'], assignments: ['Europe IT'] });
  });
});

describe('a conversation kept to one scope tag: what both its audience and the asker may see', () => {
  const europeTag = { id: '1', displayName: 'Europe' };
  const asker = (granted: ReadArea[], kind: 'tags' | 'tenant' = 'tags'): ViewerScope => {
    const areas = { granted: new Map(granted.map((area) => [area, ['Some role']] as const)), unknown: new Map(), roles: ['Some role'] };
    return kind === 'tenant'
      ? { kind: 'tenant', assignments: ['Central'], areas }
      : { kind: 'tags', tagIds: new Set(['1', '2']), tagNames: ['Europe', 'Americas'], assignments: ['Regional'], key: 'k', areas };
  };

  it("opens only the tagged reports the asker's own roles read, never a tenant-wide one, whoever asks", () => {
    for (const kind of ['tags', 'tenant'] as const) {
      const regional = scopeOfTagSeenBy(europeTag, asker(['managedDevices', 'endpointAnalytics'], kind));
      expect(regional.kind === 'tags' && [...regional.tagIds]).toEqual(['1']);
      expect(describeScope(regional)).toBe('scope tag Europe');
      expect(reportOpensTo(regional, 'escrow-gaps')).toBe(true);
      expect(reportOpensTo(regional, 'security-posture')).toBe(false);
      // Endpoint analytics covers the whole tenant: not said in a channel of one tag, though the asker reads it.
      expect(reportOpensTo(regional, 'startup-reliability')).toBe(false);
    }
  });

  it('refuses a role that reads nothing (a service desk that only reboots) every report, and keys its view apart from the tag’s own', () => {
    const desk = scopeOfTagSeenBy(europeTag, asker([]));
    for (const report of ['assignment-hygiene', 'security-posture', 'escrow-gaps', 'startup-reliability'] as const) expect(reportOpensTo(desk, report), report).toBe(false);
    const channel = scopeOfTag(europeTag);
    expect(desk.kind === 'tags' && channel.kind === 'tags' && desk.key !== channel.key).toBe(true);
  });

  it('is the tag’s own scope for an asker whose Entra role reads all Intune data (no Intune roles to narrow it)', () => {
    const entra = entraScopeOf({ objectId: 'x', entraRoleIds: [ENTRA_ROLE_IDS.intuneAdministrator] })!;
    expect(scopeOfTagSeenBy(europeTag, entra)).toEqual(scopeOfTag(europeTag));
  });
});
