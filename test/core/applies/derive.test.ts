import { describe, expect, it } from 'vitest';
import { deriveApplies, deriveEntry } from '../../../src/core/applies/derive.js';
import { undecidedReasons } from '../../../src/core/applies/words.js';
import type { AppliesRecords } from '../../../src/core/applies/derive.js';
import type { AppliesSubject, GroupMembers } from '../../../src/core/applies/entry-types.js';
import { evaluateFilterRule } from '../../../src/core/applies/filter-rule.js';
import { readTarget } from '../../../src/core/reports/assignment-hygiene/load.js';
import type { AssignableObject } from '../../../src/core/reports/assignment-hygiene/records.js';

const G = {
  a: 'aaaaaaaa-0000-4000-8000-000000000001',
  b: 'aaaaaaaa-0000-4000-8000-000000000002',
  c: 'aaaaaaaa-0000-4000-8000-000000000003',
  locked: 'aaaaaaaa-0000-4000-8000-000000000004',
  devices: 'aaaaaaaa-0000-4000-8000-000000000005',
};
const USER = 'bbbbbbbb-0000-4000-8000-000000000001';
const DEVICE_OBJECT = 'cccccccc-0000-4000-8000-000000000001';
const FILTER = 'dddddddd-0000-4000-8000-000000000001';

// Assignment targets shaped as Graph beta documents them (deviceAndAppManagementAssignmentTarget).
const group = (groupId: string, extra: Record<string, unknown> = {}) => ({
  target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId, deviceAndAppManagementAssignmentFilterType: 'none', ...extra },
});
const exclusion = (groupId: string) => ({
  target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId, deviceAndAppManagementAssignmentFilterType: 'none' },
});
const allDevices = (filterType = 'none', filterId: string | null = null) => ({
  target: {
    '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget',
    deviceAndAppManagementAssignmentFilterType: filterType,
    deviceAndAppManagementAssignmentFilterId: filterId,
  },
});
const allUsers = (intent?: string) => ({
  ...(intent ? { intent } : {}),
  target: { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget', deviceAndAppManagementAssignmentFilterType: 'none' },
});

/** A Windows object of each kind, as Graph types it (`@odata.type`, or a configuration policy's `platforms`). */
const WINDOWS: Record<AssignableObject['kind'], Partial<AssignableObject>> = {
  deviceConfiguration: { odataType: 'windows10GeneralConfiguration' },
  compliancePolicy: { odataType: 'windows10CompliancePolicy' },
  settingsCatalogPolicy: { platforms: 'windows10' },
  mobileApp: { odataType: 'win32LobApp' },
  platformScript: {},
  remediation: {},
  administrativeTemplate: {},
  // A macOS shell script is for macOS whatever it says: there is no Windows one.
  macOSShellScript: {},
  featureUpdateProfile: {},
  qualityUpdateProfile: {},
  qualityUpdatePolicy: {},
  driverUpdateProfile: {},
  settingsCompliancePolicy: { platforms: 'windows10' },
  intent: { templatePlatform: { ok: true, value: 'windows10AndLater' } },
};

function object(
  kind: AssignableObject['kind'],
  name: string,
  assignments: Array<{ target: unknown; intent?: unknown }>,
  typed: Partial<AssignableObject> = WINDOWS[kind],
): AssignableObject {
  return { kind, id: `id-${name}`, name, targets: assignments.map(readTarget), link: `https://intune.example/${name}`, ...typed };
}

const read = (id: string, name: string, members: { users?: string[]; devices?: string[]; groups?: string[] }): GroupMembers => ({
  state: 'read',
  id,
  displayName: name,
  userIds: new Set(members.users ?? []),
  deviceIds: new Set(members.devices ?? []),
  groupIds: members.groups ?? [],
});

const members = new Map<string, GroupMembers>([
  [G.a, read(G.a, 'All staff', { groups: [G.b] })],
  [G.b, read(G.b, 'Sales', { groups: [G.c] })],
  [G.c, read(G.c, 'Sales EMEA', { users: [USER] })],
  [G.locked, { state: 'unknown', id: G.locked, displayName: 'Pilot', reason: 'Graph answered 403' }],
  [G.devices, read(G.devices, 'Kiosks', { devices: [DEVICE_OBJECT] })],
]);

const device = (rule: Partial<{ osVersion: string | null; entraObjectId: string | null; primaryUserId: string | null }> = {}): AppliesSubject => ({
  kind: 'device',
  id: 'md-1',
  name: 'DESKTOP-0042',
  entraObjectId: rule.entraObjectId === undefined ? DEVICE_OBJECT : rule.entraObjectId,
  primaryUserId: rule.primaryUserId === undefined ? USER : rule.primaryUserId,
  primaryUserName: 'alice@contoso.example',
  operatingSystem: 'Windows',
  properties: { osVersion: rule.osVersion === undefined ? '10.0.22631.1' : rule.osVersion, model: 'Surface Laptop 5' },
  link: 'https://intune.example/device',
});

const records = (objects: AssignableObject[], rule = '(device.osVersion -startsWith "10.0.22")'): AppliesRecords => ({
  objects,
  filters: { ok: true, value: new Map([[FILTER, { id: FILTER, displayName: 'Windows 11', managementType: 'devices', platform: 'windows10AndLater', rule }]]) },
  members,
});

describe('what applies: path rules', () => {
  it('a direct device group applies, with the group as its path', () => {
    const entry = deriveEntry(object('deviceConfiguration', 'Kiosk lockdown', [group(G.devices)]), device(), records([]));
    expect(entry?.verdict).toBe('applies');
    expect(entry?.path.map((step) => step.words)).toEqual(['Kiosks', 'DESKTOP-0042']);
  });

  it('a nested chain reaches the device through its primary user: A → B → C → user → device', () => {
    const entry = deriveEntry(object('compliancePolicy', 'Baseline', [group(G.a)]), device(), records([]));
    expect(entry?.verdict).toBe('applies');
    expect(entry?.path.map((step) => step.kind)).toEqual(['group', 'group', 'group', 'primaryUser', 'subject']);
    expect(entry?.words).toBe('Applies through All staff → Sales → Sales EMEA → its primary user alice@contoso.example → DESKTOP-0042.');
  });

  it('an exclusion through a nested group wins over an inclusion of the same group type', () => {
    const entry = deriveEntry(object('deviceConfiguration', 'Wi-Fi', [allUsers(), exclusion(G.b)]), device(), records([]));
    expect(entry?.verdict).toBe('excluded');
    expect(entry?.exclusion?.kind).toBe('group');
    expect(entry?.words).toBe('Excluded: Sales → Sales EMEA → its primary user alice@contoso.example → DESKTOP-0042.');
  });

  it('All devices with an exclude filter: lets it in, keeps it out, or depends', () => {
    const policy = object('settingsCatalogPolicy', 'Old Windows', [allDevices('exclude', FILTER)]);
    const out = deriveEntry(policy, device(), records([]));
    expect(out?.verdict).toBe('excluded');
    expect(out?.exclusion).toMatchObject({ kind: 'filter', filter: { mode: 'exclude', name: 'Windows 11', verdict: 'out' } });
    const inside = deriveEntry(policy, device({ osVersion: '10.0.19045.1' }), records([]));
    expect(inside?.verdict).toBe('applies');
    expect(inside?.filter?.words).toBe('the exclude filter "Windows 11" lets it in');
    const depends = deriveEntry(policy, device({ osVersion: null }), records([]));
    expect(depends?.verdict).toBe('dependsOnFilter');
    expect(depends?.words).toContain('depends on the exclude filter "Windows 11" (the device\'s device.osVersion is not known)');
    const unsupported = deriveEntry(policy, device(), records([], '(device.osVersion -startsWith "10") and (device.model -eq "x") or (device.manufacturer -eq "y")'));
    expect(unsupported?.verdict).toBe('dependsOnFilter');
  });

  it('a group that could not be read is unknown, never "does not apply"', () => {
    const entry = deriveEntry(object('platformScript', 'Pilot script', [group(G.locked)]), device(), records([]));
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.undecided).toEqual({ code: 'membersUnread', reason: 'Graph answered 403', without: 'Assigned to Pilot, whose membership could not be told' });
    expect(entry?.words).toBe('Assigned to Pilot, whose membership could not be told: Graph answered 403.');
  });

  it('an unreadable exclusion group makes an inclusion unknown', () => {
    const entry = deriveEntry(object('remediation', 'Fix', [allDevices(), exclusion(G.locked)]), device(), records([]));
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.undecided).toMatchObject({ code: 'membersUnread', reason: 'Graph answered 403' });
  });

  it('a device whose Entra object cannot be told is unknown in a group with device members', () => {
    const entry = deriveEntry(object('deviceConfiguration', 'Kiosk lockdown', [group(G.devices)]), device({ entraObjectId: null }), records([]));
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.undecided?.code).toBe('deviceNotIdentified');
  });

  it('entries left undecided by the device itself share one reason, each with its own path; a group that could not be read is a reason of its own', () => {
    const answer = deriveApplies(
      {
        ...(device({ entraObjectId: null }) as Extract<AppliesSubject, { kind: 'device' }>),
        entraUnknownReason: 'which groups hold this device can be told only with Device.Read.All',
      },
      records([
        object('deviceConfiguration', 'Kiosk lockdown', [group(G.devices)]),
        object('remediation', 'Kiosk fix', [allDevices(), exclusion(G.devices)]),
        object('platformScript', 'Pilot script', [group(G.locked)]),
      ]),
    );
    const reasons = undecidedReasons(answer).map(({ words, entries, paths }) => ({ words, names: entries.map((entry) => entry.name), paths }));
    expect(reasons).toEqual([
      {
        words: 'which groups hold this device can be told only with Device.Read.All',
        names: ['Kiosk lockdown', 'Kiosk fix'],
        paths: [
          'Assigned to Kiosks, whose membership could not be told',
          'Targets it through All devices → DESKTOP-0042, but whether exclusion group Kiosks takes it out could not be told',
        ],
      },
      { words: 'Assigned to Pilot, whose membership could not be told: Graph answered 403.', names: ['Pilot script'], paths: undefined },
    ]);
  });

  it('an entry of assignments that could not be read says so, and why as a code', () => {
    const entry = deriveEntry({ ...object('deviceConfiguration', 'Unread', []), targets: null }, device(), records([]));
    expect([entry?.verdict, entry?.undecided?.code, entry?.words]).toEqual(['unknown', 'assignmentsUnread', 'Its assignments could not be read.']);
  });

  it('user targeting reaches a device through its primary user only', () => {
    const policy = object('compliancePolicy', 'Users', [allUsers()]);
    expect(deriveEntry(policy, device(), records([]))?.path.map((step) => step.kind)).toEqual(['allUsers', 'primaryUser', 'subject']);
    expect(deriveEntry(policy, device({ primaryUserId: null }), records([]))).toBeNull();
  });

  it('apps carry the intent of the assignment that decides', () => {
    const answer = deriveApplies(
      { kind: 'user', id: USER, name: 'alice@contoso.example' },
      records([
        object('mobileApp', 'Teams', [allUsers('required')]),
        object('mobileApp', 'Zoom', [allUsers('available')]),
        object('mobileApp', 'Old VPN', [{ ...group(G.a), intent: 'uninstall' }]),
      ]),
    );
    expect(answer.groups).toHaveLength(1);
    expect(answer.groups[0]!.entries.map((entry) => [entry.name, entry.intent])).toEqual([
      ['Old VPN', 'uninstall'],
      ['Teams', 'required'],
      ['Zoom', 'available'],
    ]);
  });

  it('a group subject is reached through the groups it is nested in, and All devices does not name it', () => {
    const answer = deriveApplies(
      { kind: 'group', id: G.c, name: 'Sales EMEA' },
      records([object('deviceConfiguration', 'VPN', [group(G.a)]), object('deviceConfiguration', 'Everyone', [allDevices()])]),
    );
    expect(answer.groups[0]!.entries.map((entry) => [entry.name, entry.path.map((step) => step.words).join(' → ')])).toEqual([['VPN', 'All staff → Sales → Sales EMEA']]);
  });

  it('groups answers by object type in the admin center order, and counts verdicts', () => {
    const answer = deriveApplies(device(), {
      ...records([
        object('mobileApp', 'Teams', [allUsers('required')]),
        object('deviceConfiguration', 'Wi-Fi', [allDevices()]),
        object('platformScript', 'Pilot', [group(G.locked)]),
      ]),
    });
    expect(answer.groups.map((entry) => entry.typeLabel)).toEqual(['Configuration profiles', 'Apps', 'Platform scripts']);
    expect(answer.counts).toEqual({ applies: 2, excluded: 0, dependsOnFilter: 0, unknown: 1, notForPlatform: 0 });
  });

  it('assignments read on /v1.0 apply with the caveat that a filter is not shown', () => {
    const policy: AssignableObject = {
      kind: 'deviceConfiguration',
      id: 'x',
      name: 'v1',
      readOnV1: true,
      link: '',
      targets: [readTarget({ target: { '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget' } })],
    };
    expect(deriveEntry(policy, device(), records([]))?.caveats[0]).toContain('/v1.0');
  });

  it('an object whose assignments were not read is unknown', () => {
    const policy: AssignableObject = { kind: 'deviceConfiguration', id: 'x', name: 'x', link: '', targets: null };
    expect(deriveEntry(policy, device(), records([]))?.verdict).toBe('unknown');
  });
});

describe('filter rules: the bounded subset', () => {
  const properties = { osVersion: '10.0.22631.1', model: 'Surface Laptop 5', manufacturer: 'Microsoft Corporation', deviceOwnership: 'Corporate' };
  it.each([
    ['(device.model -eq "surface laptop 5")', 'match'],
    ['(device.model -ne "Surface Laptop 5")', 'noMatch'],
    ['(device.manufacturer -contains "Microsoft") and (device.deviceOwnership -eq "Corporate")', 'match'],
    ['(device.model -in ["Surface Pro 9", "Surface Laptop 5"])', 'match'],
    ['(device.model -notIn ["Surface Laptop 5"]) or (device.osVersion -startsWith "10.0.19")', 'noMatch'],
    ['(device.deviceName -eq "x")', 'depends'],
    ['(device.model -match "Surface.*")', 'depends'],
  ])('%s → %s', (rule, kind) => {
    expect(evaluateFilterRule(rule, properties).kind).toBe(kind);
  });
});
