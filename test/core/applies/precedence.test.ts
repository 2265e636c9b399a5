/**
 * Intune's own rules for what applies (docs/finding-rules.md, "What applies"): platforms, filter-mode
 * precedence, app intent resolution before filters, exclusions only between groups of one type.
 * Each `describe` names the Microsoft Learn section it follows.
 */
import { describe, expect, it } from 'vitest';
import { deriveApplies, deriveEntry } from '../../../src/core/applies/derive.js';
import { resolveIntents } from '../../../src/core/applies/intents.js';
import { OBJECT_TYPES_READ } from '../../../src/core/applies/object-types.js';
import type { AppliesRecords } from '../../../src/core/applies/derive.js';
import type { AppliesSubject, GroupMembers } from '../../../src/core/applies/entry-types.js';
import { devicePlatform, objectPlatform } from '../../../src/core/policy-settings/platform.js';
import { readTarget } from '../../../src/core/reports/assignment-hygiene/load.js';
import type { AssignableObject } from '../../../src/core/reports/assignment-hygiene/records.js';

const USER = 'bbbbbbbb-0000-4000-8000-000000000001';
const G = {
  staff: 'aaaaaaaa-0000-4000-8000-000000000001',
  executives: 'aaaaaaaa-0000-4000-8000-000000000002',
  kiosks: 'aaaaaaaa-0000-4000-8000-000000000003',
  locked: 'aaaaaaaa-0000-4000-8000-000000000004',
};
const F = {
  win11: 'dddddddd-0000-4000-8000-000000000001',
  surface: 'dddddddd-0000-4000-8000-000000000002',
  lab: 'dddddddd-0000-4000-8000-000000000003',
  gone: 'dddddddd-0000-4000-8000-000000000009',
};

const filtered = (type: string, filterType = 'none', filterId: string | null = null, extra: Record<string, unknown> = {}) => ({
  '@odata.type': `#microsoft.graph.${type}`,
  deviceAndAppManagementAssignmentFilterType: filterType,
  deviceAndAppManagementAssignmentFilterId: filterId,
  ...extra,
});
const include = (groupId: string, filterType = 'none', filterId: string | null = null, intent?: string) => ({
  ...(intent ? { intent } : {}),
  target: filtered('groupAssignmentTarget', filterType, filterId, { groupId }),
});
const exclude = (groupId: string) => ({ target: filtered('exclusionGroupAssignmentTarget', 'none', null, { groupId }) });
const allDevices = (filterType = 'none', filterId: string | null = null, intent?: string) => ({
  ...(intent ? { intent } : {}),
  target: filtered('allDevicesAssignmentTarget', filterType, filterId),
});
const allUsers = (filterType = 'none', filterId: string | null = null, intent?: string) => ({
  ...(intent ? { intent } : {}),
  target: filtered('allLicensedUsersAssignmentTarget', filterType, filterId),
});

function object(kind: AssignableObject['kind'], name: string, typed: Partial<AssignableObject>, assignments: Array<{ target: unknown; intent?: unknown }>): AssignableObject {
  return { kind, id: `id-${name}`, name, targets: assignments.map(readTarget), link: `https://intune.example/${name}`, ...typed };
}
const windowsProfile = (name: string, assignments: Array<{ target: unknown; intent?: unknown }>) =>
  object('deviceConfiguration', name, { odataType: 'windows10GeneralConfiguration' }, assignments);
const windowsApp = (name: string, assignments: Array<{ target: unknown; intent?: unknown }>) => object('mobileApp', name, { odataType: 'win32LobApp' }, assignments);

const read = (id: string, name: string, members: { users?: string[]; devices?: string[] }): GroupMembers => ({
  state: 'read',
  id,
  displayName: name,
  userIds: new Set(members.users ?? []),
  deviceIds: new Set(members.devices ?? []),
  groupIds: [],
});

const records = (filters: AppliesRecords['filters'] = okFilters): AppliesRecords => ({
  objects: [],
  filters,
  members: new Map<string, GroupMembers>([
    [G.staff, read(G.staff, 'All staff', { users: [USER] })],
    [G.executives, read(G.executives, 'Executives', { users: [USER] })],
    [G.kiosks, read(G.kiosks, 'Kiosk devices', { devices: ['cccccccc-0000-4000-8000-000000000001'] })],
    [G.locked, { state: 'unknown', id: G.locked, displayName: 'Board members', reason: 'its membership is hidden from this app (Member.Read.Hidden)' }],
  ]),
});
const okFilters: AppliesRecords['filters'] = {
  ok: true,
  value: new Map([
    [F.win11, { id: F.win11, displayName: 'Windows 11', managementType: 'devices', platform: 'windows10AndLater', rule: '(device.osVersion -startsWith "10.0.22")' }],
    [F.surface, { id: F.surface, displayName: 'Surface', managementType: 'devices', platform: 'windows10AndLater', rule: '(device.model -startsWith "Surface")' }],
    [F.lab, { id: F.lab, displayName: 'Lab', managementType: 'devices', platform: 'windows10AndLater', rule: '(device.manufacturer -eq "Contoso Lab")' }],
  ]),
};

const device = (operatingSystem: string | null = 'Windows'): AppliesSubject => ({
  kind: 'device',
  id: 'md-1',
  name: 'CONTOSO-0026',
  entraObjectId: null,
  primaryUserId: USER,
  primaryUserName: 'alice@contoso.example',
  operatingSystem,
  properties: { osVersion: '10.0.22631.1', model: 'Surface Laptop 5', manufacturer: 'Microsoft Corporation' },
  link: 'https://intune.example/device',
});
const user: AppliesSubject = { kind: 'user', id: USER, name: 'alice@contoso.example' };

describe('platforms (the deviceCompliancePolicy resource: "Compliance policies are platform specific")', () => {
  it('an iOS compliance policy assigned to All users is not for a Windows PC, and says so', () => {
    const policy = object('compliancePolicy', 'iOS - Compliance', { odataType: '#microsoft.graph.iosCompliancePolicy' }, [allUsers()]);
    const entry = deriveEntry(policy, device(), records());
    expect(entry?.verdict).toBe('notForPlatform');
    expect(entry?.words).toBe('Not for this platform: it is for iOS/iPadOS devices, and CONTOSO-0026 runs Windows.');
  });

  it('a Windows PC sees no object of another platform as applying, whatever the kind', () => {
    const answer = deriveApplies(device(), {
      ...records(),
      objects: [
        object('deviceConfiguration', 'macOS FileVault', { odataType: 'macOSEndpointProtectionConfiguration' }, [allDevices()]),
        object('settingsCatalogPolicy', 'Android work profile', { platforms: 'androidEnterprise' }, [allUsers()]),
        object('mobileApp', 'Outlook for iOS', { odataType: 'iosStoreApp' }, [allUsers('none', null, 'required')]),
        object('mobileApp', 'Company Portal', { odataType: 'winGetApp' }, [allUsers('none', null, 'required')]),
        object('platformScript', 'Set time zone', {}, [allDevices()]),
      ],
    });
    const verdicts = Object.fromEntries(answer.groups.flatMap((group) => group.entries.map((entry) => [entry.name, entry.verdict])));
    expect(verdicts).toEqual({
      'macOS FileVault': 'notForPlatform',
      'Android work profile': 'notForPlatform',
      'Outlook for iOS': 'notForPlatform',
      'Company Portal': 'applies',
      'Set time zone': 'applies',
    });
    expect(answer.counts.notForPlatform).toBe(3);
    expect(answer.notes).toContain(OBJECT_TYPES_READ);
  });

  it("a user's answer says which platform each object is for, and keeps its verdict", () => {
    const entry = deriveEntry(object('compliancePolicy', 'iOS', { odataType: 'iosCompliancePolicy' }, [allUsers()]), user, records());
    expect(entry?.verdict).toBe('applies');
    expect(entry?.platform).toEqual({ kind: 'for', platforms: ['iOS'], words: 'iOS/iPadOS' });
    expect(entry?.words).toBe('Applies through All users → alice@contoso.example. It is for iOS/iPadOS devices.');
  });

  it('an unknown @odata.type is an unknown platform, never a guess', () => {
    const odd = object('deviceConfiguration', 'Odd', { odataType: 'windowsPhone81CustomConfiguration' }, [allDevices()]);
    expect(objectPlatform(odd)).toMatchObject({ kind: 'unknown' });
    const entry = deriveEntry(object('deviceConfiguration', 'Future', { odataType: 'visionOSFutureConfiguration' }, [allDevices()]), device(), records());
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.words).toContain('which platform it is for could not be told: its type "visionOSFutureConfiguration" is not one this app knows the platform of');
  });

  it('a device whose operating system is not known makes a platform-bound object unknown', () => {
    expect(devicePlatform('iPadOS')).toBe('iOS');
    expect(devicePlatform('AndroidForWork')).toBe('android');
    expect(devicePlatform('Playstation')).toBeNull();
    expect(deriveEntry(windowsProfile('Wi-Fi', [allDevices()]), device(null), records())?.verdict).toBe('unknown');
  });

  it('a web link is for any platform', () => {
    expect(deriveEntry(object('mobileApp', 'Intranet', { odataType: 'webApp' }, [allUsers('none', null, 'available')]), device('macOS'), records())?.verdict).toBe('applies');
  });
});

describe('filter mode (filters-reports-troubleshoot, "Filter mode": exclude > no filter > include)', () => {
  it('an exclude filter that matches wins over an assignment with no filter', () => {
    const entry = deriveEntry(windowsProfile('Old Windows', [include(G.staff), allDevices('exclude', F.win11)]), device(), records());
    expect(entry?.verdict).toBe('excluded');
    expect(entry?.words).toContain('the exclude filter "Windows 11" keeps it out');
    expect(entry?.words).toContain('An exclude filter wins over an assignment with no filter or an include filter.');
  });

  it('an exclude filter that does not match lets it in, whatever the include filter says', () => {
    const entry = deriveEntry(windowsProfile('Lab only', [allUsers('include', F.lab), allDevices('exclude', F.lab)]), device(), records());
    expect(entry?.verdict).toBe('applies');
    expect(entry?.filter).toMatchObject({ mode: 'exclude', name: 'Lab' });
  });

  it('no filter wins over an include filter that does not match', () => {
    const entry = deriveEntry(windowsProfile('Everyone', [allUsers('include', F.lab), allDevices()]), device(), records());
    expect(entry?.verdict).toBe('applies');
    expect(entry?.filter).toBeUndefined();
  });

  it('two include filters are ORed: one match lets it in; none keeps it out', () => {
    expect(deriveEntry(windowsProfile('Either', [allUsers('include', F.lab), allDevices('include', F.win11)]), device(), records())?.verdict).toBe('applies');
    const neither = deriveEntry(windowsProfile('Neither', [allUsers('include', F.lab), include(G.staff, 'include', F.lab)]), device(), records());
    expect(neither?.verdict).toBe('excluded');
  });

  it('two exclude filters are ORed: one match keeps it out', () => {
    const entry = deriveEntry(windowsProfile('Not Surface', [allUsers('exclude', F.lab), allDevices('exclude', F.surface)]), device(), records());
    expect(entry?.verdict).toBe('excluded');
    expect(entry?.words).toContain('the exclude filter "Surface" keeps it out');
  });

  it('a filter not in the filter list is named as such, never by a bare id or a doubled word', () => {
    const entry = deriveEntry(windowsProfile('Gone', [allDevices('exclude', F.gone)]), device(), records());
    expect(entry?.verdict).toBe('dependsOnFilter');
    expect(entry?.words).toBe(
      "Targets it through All devices → CONTOSO-0026; it depends on an exclude filter that is not in the tenant's filter list (its rule could not be read).",
    );
    const unread = deriveEntry(windowsProfile('Gone', [allDevices('include', F.win11)]), device(), records({ ok: false, reason: 'Graph answered 403' }));
    expect(unread?.words).toContain('depends on an include filter (the assignment filters could not be read: Graph answered 403)');
  });
});

describe('app intent (apps-deploy, "How conflicts between app intents are resolved"; evaluated before filters)', () => {
  it.each([
    [
      [
        ['required', 'user'],
        ['available', 'user'],
      ],
      ['required', 'available'],
    ],
    [
      [
        ['required', 'user'],
        ['uninstall', 'user'],
      ],
      ['required'],
    ],
    [
      [
        ['available', 'user'],
        ['uninstall', 'user'],
      ],
      ['uninstall'],
    ],
    [
      [
        ['required', 'user'],
        ['uninstall', 'device'],
      ],
      ['required'],
    ],
    [
      [
        ['available', 'user'],
        ['required', 'device'],
      ],
      ['required', 'available'],
    ],
    [
      [
        ['available', 'user'],
        ['uninstall', 'device'],
      ],
      ['available'],
    ],
    [
      [
        ['uninstall', 'user'],
        ['required', 'device'],
      ],
      ['required'],
    ],
    [
      [
        ['required', 'device'],
        ['uninstall', 'device'],
      ],
      ['required'],
    ],
    [
      [
        ['available', 'device'],
        ['uninstall', 'device'],
      ],
      ['uninstall'],
    ],
    [
      [
        ['availableWithoutEnrollment', 'user'],
        ['required', 'user'],
      ],
      ['required'],
    ],
    [
      [
        ['availableWithoutEnrollment', 'user'],
        ['required', 'device'],
      ],
      ['required', 'availableWithoutEnrollment'],
    ],
  ] as const)('%j resolves %j', (intents, winners) => {
    expect(resolveIntents(intents.map(([intent, via]) => ({ intent, via })))).toEqual({ kind: 'resolved', winners });
  });

  it('a pair the table does not list is not guessed', () => {
    expect(
      resolveIntents([
        { intent: 'available', via: 'device' },
        { intent: 'uninstall', via: 'user' },
      ]).kind,
    ).toBe('unlisted');
  });

  it('Required wins over Uninstall, whichever Graph lists first', () => {
    const app = windowsApp('Softphone', [include(G.executives, 'none', null, 'uninstall'), include(G.staff, 'none', null, 'required')]);
    expect(deriveEntry(app, device(), records())?.intent).toBe('required');
  });

  it('Required beside Available is "required and available"', () => {
    const app = windowsApp('Analytics', [include(G.executives, 'none', null, 'available'), include(G.staff, 'none', null, 'required')]);
    expect(deriveEntry(app, device(), records())?.intent).toBe('required and available');
  });

  it("the losing intent's filter is not evaluated: Required's include filter decides, not Uninstall's", () => {
    const app = windowsApp('Dialer', [include(G.executives, 'include', F.win11, 'uninstall'), include(G.staff, 'include', F.lab, 'required')]);
    const entry = deriveEntry(app, device(), records());
    expect(entry?.intent).toBe('required');
    expect(entry?.verdict).toBe('excluded');
    expect(entry?.filter).toMatchObject({ name: 'Lab', verdict: 'out' });
  });
});

describe('mixed groups (device-profile-assign, "Exclude groups from a policy assignment")', () => {
  it('a user-group exclusion does not take a device out of an All devices assignment, and says why', () => {
    const entry = deriveEntry(windowsProfile('Firewall', [allDevices(), exclude(G.executives)]), device(), records());
    expect(entry?.verdict).toBe('applies');
    expect(entry?.caveats.join(' ')).toContain('Intune does not evaluate user-to-device group relationships');
  });

  it('a device-group exclusion does not take out a user-group inclusion (not "unknown")', () => {
    const entry = deriveEntry(windowsProfile('Printers', [include(G.staff), exclude(G.kiosks)]), device(), records());
    expect(entry?.verdict).toBe('applies');
  });

  it('a user-group exclusion still takes out a user-group inclusion', () => {
    expect(deriveEntry(windowsProfile('VPN', [include(G.staff), exclude(G.executives)]), device(), records())?.verdict).toBe('excluded');
  });

  it('an exclusion group whose membership is hidden is unknown, with its reason, never "applies"', () => {
    const entry = deriveEntry(windowsProfile('Shares', [include(G.staff), exclude(G.locked)]), device(), records());
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.words).toContain('Board members');
    expect(entry?.words).toContain('Member.Read.Hidden');
  });
});

/**
 * A group that holds both the device and its primary user is a device group and a user group at
 * once: as an exclusion it takes out an inclusion of either type (Microsoft Learn, "Assign policies
 * in Microsoft Intune", "Exclude groups from a policy assignment": exclusion wins "in the following
 * same group type scenarios"), whichever of the two members the group lists first.
 */
describe('a group holding both the device and its primary user (device-profile-assign, "Exclude groups from a policy assignment")', () => {
  const DEVICE = 'cccccccc-0000-4000-8000-000000000002';
  const M = {
    userFirst: 'aaaaaaaa-0000-4000-8000-000000000011',
    deviceFirst: 'aaaaaaaa-0000-4000-8000-000000000012',
    nestedUser: 'aaaaaaaa-0000-4000-8000-000000000013',
    laptops: 'aaaaaaaa-0000-4000-8000-000000000014',
    mixedDevicesUnknown: 'aaaaaaaa-0000-4000-8000-000000000015',
  };
  const known: AppliesSubject = { ...(device() as Extract<AppliesSubject, { kind: 'device' }>), entraObjectId: DEVICE };
  const mixed = (): AppliesRecords => {
    const base = records();
    const members = new Map(base.members);
    // The user listed beside the device in one group.
    members.set(M.userFirst, read(M.userFirst, 'Pilot ring', { users: [USER], devices: [DEVICE] }));
    // The device listed directly, its user only through a nested group.
    members.set(M.deviceFirst, { ...(read(M.deviceFirst, 'Finance ring', { devices: [DEVICE] }) as Extract<GroupMembers, { state: 'read' }>), groupIds: [M.nestedUser] });
    members.set(M.nestedUser, read(M.nestedUser, 'Finance people', { users: [USER] }));
    members.set(M.laptops, read(M.laptops, 'Laptops', { devices: [DEVICE] }));
    members.set(M.mixedDevicesUnknown, read(M.mixedDevicesUnknown, 'Mixed ring', { users: [USER], devices: ['cccccccc-0000-4000-8000-000000000009'] }));
    return { ...base, members };
  };

  for (const [order, group] of [
    ['the user listed first', M.userFirst],
    ['the device listed first, its user nested', M.deviceFirst],
  ] as const) {
    it(`takes the device out of an All devices assignment (${order})`, () => {
      const entry = deriveEntry(windowsProfile('BitLocker', [allDevices(), exclude(group)]), known, mixed());
      expect(entry?.verdict).toBe('excluded');
      expect(entry?.exclusion?.kind).toBe('group');
      expect(entry?.exclusion?.words).not.toContain('alice@contoso.example');
    });

    it(`takes the device out of a device-group assignment (${order})`, () => {
      expect(deriveEntry(windowsProfile('Wi-Fi', [include(M.laptops), exclude(group)]), known, mixed())?.verdict).toBe('excluded');
    });

    it(`takes the device out of an All users assignment (${order})`, () => {
      const entry = deriveEntry(windowsProfile('OneDrive', [allUsers(), exclude(group)]), known, mixed());
      expect(entry?.verdict).toBe('excluded');
      expect(entry?.exclusion?.words).toContain('alice@contoso.example');
    });

    it(`takes the device out of a user-group assignment (${order})`, () => {
      expect(deriveEntry(windowsProfile('Edge', [include(G.staff), exclude(group)]), known, mixed())?.verdict).toBe('excluded');
    });

    it(`says no exclusion caveat when it takes the device out (${order})`, () => {
      expect(deriveEntry(windowsProfile('BitLocker', [allDevices(), exclude(group)]), known, mixed())?.caveats).toEqual([]);
    });
  }

  it('an inclusion through it still reaches the device as a device when only a user-group exclusion takes the user out', () => {
    const entry = deriveEntry(windowsProfile('Defender', [include(M.userFirst), exclude(G.executives)]), known, mixed());
    expect(entry?.verdict).toBe('applies');
    expect(entry?.path.map((step) => step.kind)).toEqual(['group', 'subject']);
  });

  it('a device whose Entra id is not known, in a group that holds its user and devices, is unknown against All devices, never "applies"', () => {
    const entry = deriveEntry(windowsProfile('BitLocker', [allDevices(), exclude(M.mixedDevicesUnknown)]), device(), mixed());
    expect(entry?.verdict).toBe('unknown');
    expect(entry?.words).toContain('Mixed ring');
  });

  it('the same group as a user exclusion still takes out an All users assignment when the device cannot be told', () => {
    expect(deriveEntry(windowsProfile('OneDrive', [allUsers(), exclude(M.mixedDevicesUnknown)]), device(), mixed())?.verdict).toBe('excluded');
  });
});
