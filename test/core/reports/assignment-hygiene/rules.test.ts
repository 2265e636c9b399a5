import { describe, expect, it } from 'vitest';
import { V1_COVERAGE_NOTICE, classifyAssignments, deriveAssignmentHygiene } from '../../../../src/core/reports/assignment-hygiene/derive.js';
import { readTarget } from '../../../../src/core/reports/assignment-hygiene/load.js';
import type { AssignableObject, AssignmentTarget } from '../../../../src/core/reports/assignment-hygiene/records.js';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };

const FULL = '11111111-1111-1111-1111-111111111111';
const EMPTY = '22222222-2222-2222-2222-222222222222';
const DELETED = '33333333-3333-3333-3333-333333333333';
const UNREADABLE = '44444444-4444-4444-4444-444444444444';
const EXCLUDED = '55555555-5555-5555-5555-555555555555';

const groups = new Map<string, GroupLookup>([
  [FULL, { state: 'found', id: FULL, displayName: 'Sales laptops', isEmpty: false }],
  [EMPTY, { state: 'found', id: EMPTY, displayName: 'Pilot ring', isEmpty: true }],
  [DELETED, { state: 'deleted', id: DELETED }],
  [UNREADABLE, { state: 'unknown', id: UNREADABLE, error: { message: 'throttled past retries' } }],
  [EXCLUDED, { state: 'found', id: EXCLUDED, displayName: 'Kiosks', isEmpty: false }],
]);

const allUsers = (intent: string | null = null): AssignmentTarget => ({ type: 'allUsers', intent });
const allDevices = (intent: string | null = null): AssignmentTarget => ({ type: 'allDevices', intent });
const include = (groupId: string, intent: string | null = null): AssignmentTarget => ({ type: 'include', groupId, intent });
const exclude = (groupId: string, intent: string | null = null): AssignmentTarget => ({ type: 'exclude', groupId, intent });
const collection = (collectionId = 'SMS00001'): AssignmentTarget => ({ type: 'configMgrCollection', collectionId, intent: null });

const object = (id: string, name: string, targets: AssignmentTarget[], kind: AssignableObject['kind'] = 'deviceConfiguration'): AssignableObject => ({
  kind,
  id,
  name,
  targets,
  link: `https://intune.example/${id}`,
});

describe('readTarget', () => {
  it.each([
    ['#microsoft.graph.allLicensedUsersAssignmentTarget', { type: 'allUsers', intent: null }],
    ['#microsoft.graph.allDevicesAssignmentTarget', { type: 'allDevices', intent: null }],
    ['microsoft.graph.allDevicesAssignmentTarget', { type: 'allDevices', intent: null }],
    ['allLicensedUsersAssignmentTarget', { type: 'allUsers', intent: null }],
  ])('reads %s', (odataType, expected) => {
    expect(readTarget({ target: { '@odata.type': odataType } })).toEqual(expected);
  });

  it('reads an include group with the #microsoft.graph. prefix and lower-cases its id', () => {
    expect(readTarget({ target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: 'AAAAAAAA-BBBB-CCCC-DDDD-EEEEEEEEEEEE' } })).toEqual({
      type: 'include',
      groupId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
      intent: null,
    });
  });

  it('reads an include group without the # or without the whole microsoft.graph. prefix', () => {
    expect(readTarget({ target: { '@odata.type': 'microsoft.graph.groupAssignmentTarget', groupId: 'ABC' } })).toEqual({ type: 'include', groupId: 'abc', intent: null });
    expect(readTarget({ target: { '@odata.type': 'groupAssignmentTarget', groupId: 'ABC' } })).toEqual({ type: 'include', groupId: 'abc', intent: null });
  });

  it('reads an exclusion group, lower-casing its id', () => {
    expect(readTarget({ target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: 'F00D-BEEF' } })).toEqual({
      type: 'exclude',
      groupId: 'f00d-beef',
      intent: null,
    });
    expect(readTarget({ target: { '@odata.type': 'exclusionGroupAssignmentTarget', groupId: 'F00D-BEEF' } })).toEqual({ type: 'exclude', groupId: 'f00d-beef', intent: null });
  });

  it('reads a Configuration Manager collection, keeping the collection id as given', () => {
    expect(readTarget({ target: { '@odata.type': '#microsoft.graph.configurationManagerCollectionAssignmentTarget', collectionId: 'SMS00001' } })).toEqual({
      type: 'configMgrCollection',
      collectionId: 'SMS00001',
      intent: null,
    });
  });

  it("keeps an app assignment's intent", () => {
    expect(readTarget({ intent: 'required', target: { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' } })).toEqual({ type: 'allUsers', intent: 'required' });
    expect(readTarget({ intent: 'available', target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: FULL } })).toEqual({
      type: 'include',
      groupId: FULL,
      intent: 'available',
    });
  });

  it('reads an unrecognised or missing type as "other", keeping the raw type', () => {
    expect(readTarget({ target: { '@odata.type': '#microsoft.graph.someFutureAssignmentTarget' } })).toEqual({
      type: 'other',
      odataType: '#microsoft.graph.someFutureAssignmentTarget',
      intent: null,
    });
    expect(readTarget({})).toEqual({ type: 'other', odataType: '', intent: null });
  });

  it('reads a group target without a groupId as an empty id rather than throwing', () => {
    expect(readTarget({ target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget' } })).toEqual({ type: 'include', groupId: '', intent: null });
  });
});

describe('classifyAssignments', () => {
  it('no assignment at all is unassigned', () => {
    expect(classifyAssignments([], groups)).toEqual({ kind: 'unassigned' });
  });

  it('any assignment is not unassigned', () => {
    expect(classifyAssignments([include(FULL)], groups)).toEqual({ kind: 'ok' });
  });

  it('only exclusions is exclusions-only, even when the excluded group has members', () => {
    expect(classifyAssignments([exclude(EXCLUDED)], groups)).toEqual({ kind: 'exclusions-only' });
    expect(classifyAssignments([exclude(EXCLUDED), exclude(DELETED)], groups)).toEqual({ kind: 'exclusions-only' });
  });

  it('an exclusion beside a live include is not exclusions-only', () => {
    expect(classifyAssignments([include(FULL), exclude(EXCLUDED)], groups)).toEqual({ kind: 'ok' });
  });

  it('only deleted or empty included groups is assigned-to-missing-or-empty-groups, listing them', () => {
    expect(classifyAssignments([include(DELETED), include(EMPTY)], groups)).toEqual({
      kind: 'assigned-to-missing-or-empty-groups',
      groups: [groups.get(DELETED), groups.get(EMPTY)],
    });
    expect(classifyAssignments([include(EMPTY)], groups).kind).toBe('assigned-to-missing-or-empty-groups');
    expect(classifyAssignments([include(DELETED)], groups).kind).toBe('assigned-to-missing-or-empty-groups');
  });

  it('one deleted included group beside one non-empty included group is not a finding', () => {
    expect(classifyAssignments([include(DELETED), include(FULL)], groups)).toEqual({ kind: 'ok' });
  });

  it('an included group that could not be read makes no finding, even beside deleted ones', () => {
    expect(classifyAssignments([include(UNREADABLE)], groups)).toEqual({ kind: 'unknown-groups', groups: [groups.get(UNREADABLE)] });
    expect(classifyAssignments([include(DELETED), include(UNREADABLE)], groups)).toEqual({ kind: 'unknown-groups', groups: [groups.get(UNREADABLE)] });
  });

  it('an included group missing from the look-up map is treated as unknown, not deleted', () => {
    expect(classifyAssignments([include('99999999-9999-9999-9999-999999999999')], groups).kind).toBe('unknown-groups');
  });

  it('a Configuration Manager collection is never a finding, even beside deleted or empty groups', () => {
    expect(classifyAssignments([collection()], groups)).toEqual({ kind: 'ok' });
    expect(classifyAssignments([collection(), include(DELETED), include(EMPTY)], groups)).toEqual({ kind: 'ok' });
    expect(classifyAssignments([collection(), exclude(EXCLUDED)], groups)).toEqual({ kind: 'ok' });
  });

  it('All users or All devices alone reaches someone: not a finding, even beside a deleted group', () => {
    expect(classifyAssignments([allUsers(), include(DELETED)], groups)).toEqual({ kind: 'ok' });
    expect(classifyAssignments([allDevices(), exclude(EXCLUDED)], groups)).toEqual({ kind: 'ok' });
  });

  it('All users and All devices together is all-users-and-all-devices, with both intents', () => {
    expect(classifyAssignments([allUsers('required'), allDevices('available')], groups)).toEqual({
      kind: 'all-users-and-all-devices',
      intents: { allUsers: 'required', allDevices: 'available' },
    });
  });

  it('exclusions do not rescue an object from any rule', () => {
    expect(classifyAssignments([allUsers(), allDevices(), exclude(EXCLUDED)], groups).kind).toBe('all-users-and-all-devices');
    expect(classifyAssignments([include(DELETED), exclude(EXCLUDED)], groups).kind).toBe('assigned-to-missing-or-empty-groups');
    expect(classifyAssignments([include(EMPTY), exclude(FULL)], groups).kind).toBe('assigned-to-missing-or-empty-groups');
  });
});

const NOTHING_LEFT_OUT = { catalogueApps: 0, builtInScripts: 0 };
/** Both beta reads answered, with nothing in them: no app relationship, no assignment filter. */
const READ_NOTHING_FOUND = { relationships: { ok: true as const, value: [] }, filters: { ok: true as const, value: new Map() } };

describe('deriveAssignmentHygiene', () => {
  it('reports a never-assigned object as unassigned, with "None" as its assignments', () => {
    const report = deriveAssignmentHygiene(
      { objects: [object('cfg-1', 'Wi-Fi profile', [])], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.rows).toEqual([
      {
        id: 'cfg-1',
        type: 'Configuration profile',
        name: 'Wi-Fi profile',
        assignments: 'None',
        status: 'Never assigned',
        statusTone: 'warning',
        link: 'https://intune.example/cfg-1',
        // Its scope tags, not known: the record carries none (a list read on /v1.0).
        roleScopeTagIds: null,
      },
    ]);
    expect(report.findings).toEqual([
      { kind: 'unassigned', subjectId: 'cfg-1', subjectName: 'Configuration profile: Wi-Fi profile', detail: 'Configuration profile has no assignment, so it applies to nobody.' },
    ]);
  });

  it('reports an app assigned only to an exclusion group as exclusions-only', () => {
    const report = deriveAssignmentHygiene(
      { objects: [object('app-1', 'Contoso VPN', [exclude(EXCLUDED, 'required')], 'mobileApp')], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.rows[0]).toMatchObject({ type: 'App', status: 'Exclusions only', assignments: 'Exclude: Kiosks' });
    expect(report.findings).toEqual([
      {
        kind: 'exclusions-only',
        subjectId: 'app-1',
        subjectName: 'App: Contoso VPN',
        detail: 'App is assigned only through exclusion groups; an exclusion only subtracts, so it applies to nobody.',
      },
    ]);
  });

  it('reports only deleted or empty included groups, naming each', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [object('pol-1', 'BitLocker', [include(DELETED), include(EMPTY)], 'compliancePolicy')],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows[0]).toMatchObject({
      type: 'Compliance policy',
      status: 'Only deleted or empty groups',
      assignments: `Include: deleted group ${DELETED}; Pilot ring (empty)`,
    });
    expect(report.findings).toEqual([
      {
        kind: 'assigned-to-missing-or-empty-groups',
        subjectId: 'pol-1',
        subjectName: 'Compliance policy: BitLocker',
        detail: `Every included group is deleted or empty: deleted group ${DELETED}, Pilot ring (empty).`,
      },
    ]);
  });

  it('one deleted included group and one non-empty included group is OK, not a finding', () => {
    const report = deriveAssignmentHygiene(
      { objects: [object('cfg-2', 'Edge settings', [include(DELETED), include(FULL)])], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.rows[0]).toMatchObject({ status: 'OK', assignments: `Include: deleted group ${DELETED}; Sales laptops` });
    expect(report.findings).toEqual([]);
  });

  it('an included group that could not be read makes no finding; the status says it could not check', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [object('scr-1', 'Rename device', [include(UNREADABLE), include(DELETED)], 'platformScript')],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows[0]).toMatchObject({
      type: 'Platform script',
      status: 'Could not check: 1 group could not be read',
      assignments: `Include: group ${UNREADABLE} (could not be read); deleted group ${DELETED}`,
    });
    expect(report.findings).toEqual([]);
  });

  it('says "groups" when several could not be read', () => {
    const other = '66666666-6666-6666-6666-666666666666';
    const lookups = new Map(groups).set(other, { state: 'unknown', id: other, error: { message: '503' } });
    const report = deriveAssignmentHygiene(
      {
        objects: [object('rem-1', 'Clear temp', [include(UNREADABLE), include(other)], 'remediation')],
        groups: lookups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows[0]?.status).toBe('Could not check: 2 groups could not be read');
    expect(report.findings).toEqual([]);
  });

  it('a Configuration Manager collection target never makes a finding', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [object('app-2', 'Office', [collection('SMS00004'), include(DELETED)], 'mobileApp')],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows[0]).toMatchObject({ status: 'OK', assignments: `Include: Configuration Manager collection SMS00004; deleted group ${DELETED}` });
    expect(report.findings).toEqual([]);
  });

  it('All users + All devices is a finding with the app intents in the detail', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [object('app-3', 'Company Portal', [allUsers('required'), allDevices('available')], 'mobileApp')],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows[0]).toMatchObject({ status: 'All users and All devices', assignments: 'Include: All users [required]; All devices [available]' });
    expect(report.findings).toEqual([
      {
        kind: 'all-users-and-all-devices',
        subjectId: 'app-3',
        subjectName: 'App: Company Portal',
        detail:
          'Assigned to both All users and All devices with different intents (All users: required; All devices: available); Intune resolves the intent before any filter, so which one a device gets is hard to predict.',
      },
    ]);
  });

  it('All users + All devices without intents (a policy) has no intent suffix', () => {
    const report = deriveAssignmentHygiene(
      { objects: [object('cfg-3', 'Defender', [allUsers(), allDevices()], 'settingsCatalogPolicy')], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.findings).toEqual([
      {
        kind: 'all-users-and-all-devices',
        subjectId: 'cfg-3',
        subjectName: 'Settings catalog policy: Defender',
        detail: 'Assigned to both All users and All devices, and no filter keeps the two apart, so devices get it through both targets.',
      },
    ]);
  });

  it('All users alone, or All devices alone, is not a finding', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [object('a', 'Users only', [allUsers('required')], 'mobileApp'), object('b', 'Devices only', [allDevices()])],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows.map((row) => row.status)).toEqual(['OK', 'OK']);
    expect(report.findings).toEqual([]);
  });

  it('exclusions never rescue an object', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [
          object('x-1', 'Broad', [allUsers(), allDevices(), exclude(EXCLUDED)]),
          object('x-2', 'Stale', [include(EMPTY), exclude(FULL)]),
          object('x-3', 'Nobody', [exclude(FULL), exclude(EXCLUDED)]),
        ],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['all-users-and-all-devices', 'x-1'],
      ['assigned-to-missing-or-empty-groups', 'x-2'],
      ['exclusions-only', 'x-3'],
    ]);
    expect(report.rows.find((row) => row.id === 'x-1')?.assignments).toBe('Include: All users; All devices · Exclude: Kiosks');
  });

  it('orders rows by status (missing/empty, exclusions only, both, never assigned, could not check, OK), then type, then name', () => {
    const report = deriveAssignmentHygiene(
      {
        objects: [
          object('ok', 'Fine', [include(FULL)]),
          object('unk', 'Unreadable', [include(UNREADABLE)]),
          object('never-b', 'Zeta', []),
          object('never-a', 'alpha', []),
          object('never-app', 'Beta', [], 'mobileApp'),
          object('both', 'Both', [allUsers(), allDevices()]),
          object('excl', 'Excl', [exclude(FULL)]),
          object('gone', 'Gone', [include(DELETED)]),
        ],
        groups,
        leftOut: NOTHING_LEFT_OUT,
        betaCoverage: true,
        ...READ_NOTHING_FOUND,
      },
      context,
    );
    expect(report.rows.map((row) => row.id)).toEqual(['gone', 'excl', 'both', 'never-app', 'never-a', 'never-b', 'unk', 'ok']);
    expect(report.findings.map((finding) => finding.subjectId).sort()).toEqual(['both', 'excl', 'gone', 'never-a', 'never-app', 'never-b']);
    expect(report.state).toBe('loaded');
    expect(report.columns.map((column) => column.key)).toEqual(['type', 'name', 'status', 'assignments']);
  });

  it('reads real Graph assignment shapes end to end through readTarget', () => {
    const targets = [
      { intent: 'required', target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: DELETED.toUpperCase() } },
      { intent: 'required', target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: EXCLUDED.toUpperCase() } },
    ].map(readTarget);
    const report = deriveAssignmentHygiene(
      { objects: [object('app-9', 'Legacy', targets, 'mobileApp')], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.findings.map((finding) => finding.kind)).toEqual(['assigned-to-missing-or-empty-groups']);
    expect(report.rows[0]?.assignments).toBe(`Include: deleted group ${DELETED} [required] · Exclude: Kiosks`);
  });
});

describe('what report 2 must not call unassigned (issue 11, point 2)', () => {
  it('an object whose answer has no assignments property is unknown, not unassigned: no finding, and the row says so', () => {
    const report = deriveAssignmentHygiene(
      { objects: [{ ...object('app-9', 'Contoso Notes', [], 'mobileApp'), targets: null }], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND },
      context,
    );
    expect(report.rows[0]).toMatchObject({ status: 'Could not check: Graph returned no assignments for it', assignments: 'Not returned by Graph' });
    expect(report.findings).toEqual([]);
  });

  it("says what it left out as the Intune admin center does: Microsoft's catalogue apps and built-in remediation scripts", () => {
    const report = deriveAssignmentHygiene({ objects: [], groups, leftOut: { catalogueApps: 2, builtInScripts: 1 }, betaCoverage: true, ...READ_NOTHING_FOUND }, context);
    expect(report.notice).toBe(
      "Left out, as the Intune admin center leaves them out: 2 Microsoft catalogue apps and 1 built-in remediation script (Microsoft's own, present in every tenant).",
    );
    expect(deriveAssignmentHygiene({ objects: [], groups, leftOut: NOTHING_LEFT_OUT, betaCoverage: true, ...READ_NOTHING_FOUND }, context).notice).toBeNull();
  });
});

describe('what report 2 cannot show on /v1.0 (issue 11, point 3)', () => {
  it('read on /v1.0, the notice names the kinds of object that segment leaves out and the setting that brings them in', () => {
    const report = deriveAssignmentHygiene({ objects: [], groups, leftOut: { catalogueApps: 1, builtInScripts: 0 }, betaCoverage: false, ...READ_NOTHING_FOUND }, context);
    expect(report.notice).toBe(`Left out, as the Intune admin center leaves them out: 1 Microsoft catalogue app (Microsoft's own, present in every tenant). ${V1_COVERAGE_NOTICE}`);
    // Read in the tab and the cards: what the reader can ask for, not a server setting they cannot change.
    expect(V1_COVERAGE_NOTICE).toContain("Whoever runs this app can have it read Microsoft Graph's beta version, as the Intune admin center does");
    expect(V1_COVERAGE_NOTICE).not.toContain('GRAPH_BETA_COVERAGE');
    for (const kind of ['Wi-Fi', 'VPN', 'SCEP', 'PKCS', 'email', 'AOSP', 'Microsoft 365 Apps', 'WinGet', 'managed Google Play']) expect(V1_COVERAGE_NOTICE).toContain(kind);
  });
});
