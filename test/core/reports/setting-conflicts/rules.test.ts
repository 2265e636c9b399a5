import { describe, expect, it } from 'vitest';
import { classicSettingName, classicSettingValue } from '../../../../src/core/reports/setting-conflicts/classic-settings.js';
import { classicProfileValues, classicSettingNames } from '../../../../src/core/reports/setting-conflicts/classic-profiles.js';
import { deriveSettingConflicts, uncomparedSentence } from '../../../../src/core/reports/setting-conflicts/derive.js';
import { MERGED_SETTINGS } from '../../../../src/core/policy-settings/pair-judge.js';
import { settingConflictsReport } from '../../../../src/core/reports/setting-conflicts/definition.js';
import type { SettingConflictRecords } from '../../../../src/core/reports/setting-conflicts/conflict-records.js';
import type { ConflictPolicy } from '../../../../src/core/policy-settings/conflict-policy.js';
import { targetsOverlap } from '../../../../src/core/policy-settings/overlap.js';
import type { EnrolledDevice, MemberDevices } from '../../../../src/core/policy-settings/overlap.js';
import type { TargetedPolicy } from '../../../../src/core/policy-settings/group-reach.js';
import { SECRET_DISPLAY, settingValues } from '../../../../src/core/policy-settings/setting-values.js';
import type { GroupLookup, GroupMember } from '../../../../src/core/directory/group-lookup.js';
import type { AssignableObject, AssignmentTarget } from '../../../../src/core/reports/assignment-hygiene/records.js';
import { settingNames } from '../../../../src/core/policy-settings/settings-read.js';
import { definitionNames } from '../../../../src/core/policy-settings/conflict-policy.js';

const ASR = 'device_vendor_msft_policy_config_defender_attacksurfacereductionrules';
const OBFUSCATED = `${ASR}_blockexecutionofpotentiallyobfuscatedscripts`;
const PSEXEC = `${ASR}_blockprocesscreationsfrompsexecandwmicommands`;
const CAMERA = 'device_vendor_msft_policy_config_camera_allowcamera';
const FIREWALL = 'vendor_msft_firewall_mdmstore_publicprofile_enablefirewall';

const choiceInstance = (id: string, value: string, children: unknown[] = []) => ({
  '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
  settingDefinitionId: id,
  choiceSettingValue: { value, children },
});
const asrInstance = (rules: Array<[string, string]>) => ({
  '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
  settingDefinitionId: ASR,
  groupSettingCollectionValue: [{ children: rules.map(([id, mode]) => choiceInstance(id, `${id}_${mode}`)) }],
});
const setting = (instance: unknown) => ({ id: '0', settingInstance: instance });
/** A group collection's definition as `$expand=settingDefinitions` gives it, with how many entries it allows. */
const collectionDefinition = (id: string, maximumCount: number) => ({
  '@odata.type': '#microsoft.graph.deviceManagementConfigurationSettingGroupCollectionDefinition',
  id,
  minimumCount: 0,
  maximumCount,
});
/** The ASR rules with their definition, which allows one entry: each rule is a setting of its own. */
const asrSetting = (rules: Array<[string, string]>) => ({ ...setting(asrInstance(rules)), settingDefinitions: [collectionDefinition(ASR, 1)] });
const FIREWALL_RULES = 'vendor_msft_firewall_mdmstore_firewallrules_{firewallrulename}';
const stringInstance = (id: string, value: string) => ({
  '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
  settingDefinitionId: id,
  simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value },
});
/** One firewall rule in a list of rules, the list's definition given or not. */
const firewallRule = (name: string, port: string, definition: 'listed' | 'not read' = 'listed') => ({
  ...setting({
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
    settingDefinitionId: FIREWALL_RULES,
    groupSettingCollectionValue: [{ children: [stringInstance(`${FIREWALL_RULES}_name`, name), stringInstance(`${FIREWALL_RULES}_localportranges`, port)] }],
  }),
  ...(definition === 'listed' ? { settingDefinitions: [collectionDefinition(FIREWALL_RULES, 150)] } : {}),
});
const camera = (value: string) => setting(choiceInstance(CAMERA, `${CAMERA}_${value}`));
const firewall = (value: string) => setting(choiceInstance(FIREWALL, `${FIREWALL}_${value}`));

const G1 = '11111111-1111-4111-8111-111111111111';
const G2 = '22222222-2222-4222-8222-222222222222';
const EMPTY = '33333333-3333-4333-8333-333333333333';

const groups = new Map<string, GroupLookup>([
  [G1, { state: 'found', id: G1, displayName: 'Finance devices', isEmpty: false }],
  [G2, { state: 'found', id: G2, displayName: 'Sales devices', isEmpty: false }],
  [EMPTY, { state: 'found', id: EMPTY, displayName: 'Nobody', isEmpty: true }],
]);

const include = (groupId: string, filter: AssignmentTarget['filter'] = { mode: 'none' }): AssignmentTarget => ({ type: 'include', groupId, intent: 'apply', filter });
const exclude = (groupId: string): AssignmentTarget => ({ type: 'exclude', groupId, intent: 'apply', filter: { mode: 'none' } });
const allDevices: AssignmentTarget = { type: 'allDevices', intent: 'apply', filter: { mode: 'none' } };

function policyPair(
  id: string,
  settings: unknown[],
  targets: AssignmentTarget[] | null,
  overrides: Partial<ConflictPolicy> = {},
): { policy: ConflictPolicy; object: AssignableObject } {
  const name = `Policy ${id}`;
  return {
    policy: { id, name, templateFamily: 'none', platforms: 'windows10', values: settingValues(settings), settingsError: null, link: null, ...overrides },
    object: { kind: 'settingsCatalogPolicy', id, name, targets, link: '', platforms: overrides.platforms ?? 'windows10' },
  };
}

function records(...pairs: Array<ReturnType<typeof policyPair>>): SettingConflictRecords {
  return { policies: pairs.map((pair) => pair.policy), assignments: { objects: pairs.map((pair) => pair.object), groups }, reported: { ok: true, value: [] } };
}

describe('settingValues', () => {
  it('keeps each rule of an ASR group collection apart, and a choice without its setting prefix for display', () => {
    const values = settingValues([
      asrSetting([
        [OBFUSCATED, 'block'],
        [PSEXEC, 'audit'],
      ]),
    ]);
    expect(values).toEqual([
      { settingDefinitionId: OBFUSCATED, value: `${OBFUSCATED}_block`, display: 'block', secret: false },
      { settingDefinitionId: PSEXEC, value: `${PSEXEC}_audit`, display: 'audit', secret: false },
    ]);
  });

  it('never keeps a secret value, only that it is set', () => {
    const [value] = settingValues([
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
        settingDefinitionId: 'device_vendor_msft_wifi_key',
        simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationSecretSettingValue', value: 'hunter2', valueState: 'notEncrypted' },
      }),
    ]);
    expect(value).toEqual({ settingDefinitionId: 'device_vendor_msft_wifi_key', value: null, display: SECRET_DISPLAY, secret: true });
    expect(JSON.stringify(value)).not.toContain('hunter2');
  });

  it('compares strings trimmed and integers as numbers; a group collection of several entries is one value', () => {
    const values = settingValues([
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
        settingDefinitionId: 'a',
        simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value: '  x  ' },
      }),
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
        settingDefinitionId: 'b',
        simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationIntegerSettingValue', value: 5 },
      }),
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
        settingDefinitionId: 'rules',
        groupSettingCollectionValue: [{ children: [choiceInstance('rules_action', 'allow')] }, { children: [choiceInstance('rules_action', 'block')] }],
      }),
    ]);
    expect(values.map((value) => [value.settingDefinitionId, value.value])).toEqual([
      ['a', 'x'],
      ['b', '5'],
      ['rules', 'rules=[{rules_action=allow{}},{rules_action=block{}}]'],
    ]);
  });
});

describe('settingValues: one group or a list, as the definition says', () => {
  it('compares a group collection whose definition allows several entries whole, even with one entry in it', () => {
    const values = settingValues([firewallRule('Allow RDP', '3389')]);
    expect(values.map((value) => [value.settingDefinitionId, value.display])).toEqual([[FIREWALL_RULES, '1 entry']]);
  });

  it('compares a group collection whole where its definition was not read: nothing proves it is one group', () => {
    expect(settingValues([firewallRule('Allow RDP', '3389', 'not read')]).map((value) => value.settingDefinitionId)).toEqual([FIREWALL_RULES]);
    expect(settingValues([setting(asrInstance([[OBFUSCATED, 'block']]))]).map((value) => value.settingDefinitionId)).toEqual([ASR]);
  });
});

describe('targetsOverlap', () => {
  const targeted = (name: string, targets: AssignmentTarget[] | null, platforms = 'windows10'): TargetedPolicy => ({
    kind: 'settingsCatalogPolicy',
    id: name,
    name,
    targets,
    platforms,
  });

  it('is proven for the same group read with members, with no filter or exclusion', () => {
    expect(targetsOverlap(targeted('A', [include(G1)]), targeted('B', [include(G1)]), groups)).toEqual({ kind: 'overlap', shared: 'group "Finance devices"' });
    expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [allDevices]), groups)).toEqual({ kind: 'overlap', shared: 'All devices' });
  });

  it('cannot be told for different groups, a filter, or an exclusion that may hold the shared members', () => {
    expect(targetsOverlap(targeted('A', [include(G1)]), targeted('B', [include(G2)]), groups).kind).toBe('possible');
    expect(targetsOverlap(targeted('A', [include(G1, { mode: 'include', id: 'f' })]), targeted('B', [include(G1)]), groups)).toMatchObject({
      kind: 'possible',
      reason: expect.stringContaining('assignment filter'),
      short: 'assignment filter',
    });
    expect(targetsOverlap(targeted('A', [allDevices, exclude(G2)]), targeted('B', [allDevices]), groups)).toMatchObject({
      kind: 'possible',
      reason: expect.stringContaining('excludes group "Sales devices"'),
      short: 'an exclusion',
    });
    expect(targetsOverlap(targeted('A', null), targeted('B', [allDevices]), groups)).toMatchObject({ kind: 'possible' });
  });

  it('is disjoint where a policy excludes the group it shares, reaches only an empty group, or is for another platform', () => {
    expect(targetsOverlap(targeted('A', [include(G1), exclude(G1)]), targeted('B', [include(G1)]), groups).kind).toBe('disjoint');
    expect(targetsOverlap(targeted('A', [include(EMPTY)]), targeted('B', [include(EMPTY)]), groups).kind).toBe('disjoint');
    expect(targetsOverlap(targeted('A', [allDevices], 'macOS'), targeted('B', [allDevices]), groups)).toMatchObject({ kind: 'disjoint', reason: expect.stringContaining('macOS') });
  });
});

describe('overlap from the member lists report 2 already read', () => {
  const U = (n: number) => `00000000-0000-4000-8000-0000000000${String(n).padStart(2, '0')}`;
  const D1 = '44444444-4444-4444-8444-444444444444';
  const [P, C, X, Y, BIG, DEV, EXC] = ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7'].map((n) => `${n}000000-0000-4000-8000-000000000000`) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const users = (...ns: number[]) => ns.map((n) => ({ id: U(n), type: 'user' as const }));
  const found = (id: string, displayName: string, members: GroupMember[], whole = true): GroupLookup => ({
    state: 'found',
    id,
    displayName,
    isEmpty: members.length === 0,
    members,
    membersWhole: whole,
  });
  const lists = new Map<string, GroupLookup>([
    // "Parent" holds two users and the group "Child"; "X" and "Y" share no one; "Big" lists 20 of its members.
    [P, found(P, 'Parent', [...users(1, 2), { id: C, type: 'group' }])],
    [C, found(C, 'Child', users(3, 4))],
    [X, found(X, 'X', users(5, 6))],
    [Y, found(Y, 'Y', users(7, 8))],
    [BIG, found(BIG, 'Big', users(10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29), false)],
    [DEV, found(DEV, 'Kiosks', [{ id: D1, type: 'device' }])],
    [EXC, found(EXC, 'Opted out', users(3))],
  ]);
  const targeted = (name: string, targets: AssignmentTarget[]): TargetedPolicy => ({ kind: 'settingsCatalogPolicy', id: name, name, targets, platforms: 'windows10' });

  it('proves overlap through a nested group, counting and naming its members by id', () => {
    const overlap = targetsOverlap(targeted('A', [include(P)]), targeted('B', [include(C)]), lists);
    expect(overlap).toEqual({
      kind: 'overlap',
      shared: 'group "Child", nested in group "Parent"',
      reached: { users: 2, devices: 0, named: [`user ${U(3)}`, `user ${U(4)}`], whole: true },
    });
  });

  it('proves overlap through the same user in two groups, less those an exclusion is seen to take out', () => {
    const parentAndX = found(X, 'X', users(2, 3, 6));
    const withShared = new Map([...lists, [X, parentAndX]]);
    expect(targetsOverlap(targeted('A', [include(P)]), targeted('B', [include(X)]), withShared)).toMatchObject({
      kind: 'overlap',
      shared: 'the members group "Parent" and group "X" share',
      reached: { users: 2, named: [`user ${U(2)}`, `user ${U(3)}`], whole: true },
    });
    // "Opted out" holds user 3: excluded by B, only user 2 is left, and the count says some were taken out.
    expect(targetsOverlap(targeted('A', [include(P)]), targeted('B', [include(X), exclude(EXC)]), withShared)).toMatchObject({
      kind: 'overlap',
      reached: { users: 1, named: [`user ${U(2)}`], whole: false },
    });
  });

  it('proves no overlap through a group both include that holds no user or device, only where its list was whole', () => {
    const APPS = 'a8000000-0000-4000-8000-000000000000';
    const withApps = new Map(lists);
    // A group not empty, yet of service principals only: Intune delivers policy to users and devices, so no one is reached.
    withApps.set(APPS, found(APPS, 'Automation accounts', [{ id: U(40), type: 'other' }]));
    expect(targetsOverlap(targeted('A', [include(APPS)]), targeted('B', [include(APPS)]), withApps)).toMatchObject({ kind: 'disjoint' });
    const partly = new Map(lists).set(APPS, found(APPS, 'Automation accounts', [{ id: U(40), type: 'other' }], false));
    expect(targetsOverlap(targeted('A', [include(APPS)]), targeted('B', [include(APPS)]), partly)).toMatchObject({ kind: 'possible' });
  });

  it('is disjoint for two groups seen whole that share no one, saying why it is proven', () => {
    expect(targetsOverlap(targeted('A', [include(X)]), targeted('B', [include(Y)]), lists)).toEqual({
      kind: 'disjoint',
      reason: 'group "X" and group "Y" were each seen whole (fewer than 20 members, nested groups included) and share no user or device',
    });
  });

  it('cannot tell where a list was not seen whole, saying which, nor for users beside devices', () => {
    expect(targetsOverlap(targeted('A', [include(BIG)]), targeted('B', [include(X)]), lists)).toEqual({
      kind: 'possible',
      reason:
        'group "Big" and group "X" are different groups, and not all of who they hold was seen: group "Big" has 20 members or more, and Graph lists only the first 20 of them in the one read made',
      short: 'not all members seen',
    });
    expect(targetsOverlap(targeted('A', [include(X)]), targeted('B', [include(DEV)]), lists)).toMatchObject({ kind: 'possible', short: 'users and devices' });
    // A group nested among users that no policy names is not looked up: its members were not seen.
    const UNREAD = 'a8000000-0000-4000-8000-000000000000';
    const withUnread = new Map([...lists, [X, found(X, 'X', [...users(5, 6), { id: UNREAD, type: 'group' }])]]);
    expect(targetsOverlap(targeted('A', [include(X)]), targeted('B', [include(Y)]), withUnread)).toMatchObject({
      kind: 'possible',
      reason: expect.stringContaining(`group ${UNREAD}, nested in a group assigned, was not looked up`),
      short: 'nested group not read',
    });
  });

  it('keeps All users or All devices beside a group "cannot tell", counting the group where its list was seen whole', () => {
    expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(DEV)]), lists)).toMatchObject({
      kind: 'possible',
      reason: expect.stringContaining('group "Kiosks" holds 1 device (its whole list, nested groups included)'),
      short: 'All devices beside a group',
    });
    // All devices except a group of devices seen whole, and that group: every one of them is taken out.
    expect(targetsOverlap(targeted('A', [allDevices, exclude(DEV)]), targeted('B', [include(DEV)]), lists).kind).toBe('disjoint');
    // All devices except a group of users: Intune takes no user's device out of All devices.
    expect(targetsOverlap(targeted('A', [allDevices, exclude(X)]), targeted('B', [include(X)]), lists)).toMatchObject({ kind: 'possible', short: 'an exclusion' });
  });

  describe("All devices beside a group of users, by the users' enrolled devices", () => {
    const pc = (n: number, platform: EnrolledDevice['platform'] = 'windows'): EnrolledDevice => ({ id: `md-${n}`, name: `PC-${n}`, platform });
    // "X" holds users 5 and 6: user 5 enrolled a Windows PC and an iPhone, user 6 nothing.
    const devices: MemberDevices = new Map([
      [U(5), { ok: true, devices: [pc(5), { id: 'md-55', name: 'iPhone-5', platform: 'iOS' }] }],
      [U(6), { ok: true, devices: [] }],
    ]);
    const shared = 'the enrolled devices of the users in group "X", which All devices includes';

    it("proves overlap through a user's enrolled device of the policies' platform, named, counted exactly where every user's devices were read", () => {
      expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(X)]), lists, devices)).toEqual({
        kind: 'overlap',
        shared,
        reached: { users: 0, devices: 1, named: ['device PC-5'], whole: true },
      });
      // One user's devices not read: at least that device.
      const partly: MemberDevices = new Map([[U(5), { ok: true, devices: [pc(5)] }]]);
      expect(targetsOverlap(targeted('B', [include(X)]), targeted('A', [allDevices]), lists, partly)).toMatchObject({ kind: 'overlap', reached: { devices: 1, whole: false } });
    });

    it('stays possible, saying why, where no enrolled device of the platform was seen, or a filter, an exclusion or an unread list leaves it open', () => {
      const onlyIPhones: MemberDevices = new Map([
        [U(5), { ok: true, devices: [{ id: 'md-55', name: 'iPhone-5', platform: 'iOS' }] }],
        [U(6), { ok: true, devices: [] }],
      ]);
      expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(X)]), lists, onlyIPhones)).toMatchObject({
        kind: 'possible',
        reason: expect.stringContaining('none of its users has an enrolled device on a platform both policies are for now'),
      });
      const failed: MemberDevices = new Map([[U(5), { ok: false, reason: 'Graph answered 403' }]]);
      expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(X)]), lists, failed)).toMatchObject({
        kind: 'possible',
        reason: expect.stringContaining('the enrolled devices of its users could not be read: Graph answered 403'),
      });
      expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(X)]), lists)).toMatchObject({
        kind: 'possible',
        reason: expect.stringContaining('the enrolled devices of its users were not read'),
      });
      const filtered: AssignmentTarget = { ...allDevices, filter: { mode: 'include', id: 'f1' } };
      expect(targetsOverlap(targeted('A', [filtered]), targeted('B', [include(X)]), lists, devices).kind).toBe('possible');
      // All devices but a group: whether that group holds the device was not read.
      expect(targetsOverlap(targeted('A', [allDevices, exclude(DEV)]), targeted('B', [include(X)]), lists, devices).kind).toBe('possible');
      // The group's policy takes user 5 out: the PC is not reached through them.
      const optedOut = new Map([...lists, [EXC, found(EXC, 'Opted out', users(5))]]);
      expect(targetsOverlap(targeted('A', [allDevices]), targeted('B', [include(X), exclude(EXC)]), optedOut, devices).kind).toBe('possible');
      // A policy for iOS beside one for Windows never meets, whatever devices are read.
      expect(targetsOverlap(targeted('A', [allDevices]), { ...targeted('B', [include(X)]), platforms: 'iOS' }, lists, devices).kind).toBe('disjoint');
    });

    it('is found by derive through the index, among setters that share no group, and called a conflict', () => {
      const pairs = [
        policyPair('a', [camera('0')], [allDevices]),
        policyPair('b', [camera('1')], [include(X)]),
        policyPair('c', [camera('1')], [include(Y)]),
        policyPair('d', [camera('1')], [include(BIG)]),
      ];
      const derived = deriveSettingConflicts({ ...records(...pairs), assignments: { objects: pairs.map((pair) => pair.object), groups: lists }, memberDevices: devices });
      expect(derived.findings).toEqual([
        expect.objectContaining({ kind: 'setting-conflict', ruleKey: 'a,b', detail: expect.stringContaining(`Both reach ${shared}: 1 device (device PC-5)`) }),
      ]);
      expect(derived.rows).toEqual([expect.objectContaining({ verdict: 'Conflict', overlap: 'Both reach 1 device' })]);
    });
  });

  it('indexes a policy by the groups nested in its own and by each member it is seen to reach, so derive finds these pairs', () => {
    const derived = deriveSettingConflicts({
      policies: [policyPair('a', [camera('0')], [include(P)]).policy, policyPair('b', [camera('1')], [include(C)]).policy],
      assignments: { objects: [policyPair('a', [], [include(P)]).object, policyPair('b', [], [include(C)]).object], groups: lists },
      reported: { ok: true, value: [] },
    });
    expect(derived.rows).toEqual([expect.objectContaining({ verdict: 'Conflict', overlap: 'Both reach 2 users' })]);
    expect(derived.findings).toEqual([
      expect.objectContaining({
        kind: 'setting-conflict',
        detail: expect.stringContaining(`Both reach group "Child", nested in group "Parent": 2 users (user ${U(3)}, user ${U(4)})`),
      }),
    ]);
  });
});

describe('deriveSettingConflicts', () => {
  it('finds a security conflict on one ASR rule, and none on the rules set alike or only once', () => {
    const a = policyPair(
      'a',
      [
        asrSetting([
          [OBFUSCATED, 'block'],
          [PSEXEC, 'block'],
        ]),
      ],
      [include(G1)],
      { templateFamily: 'endpointSecurityAttackSurfaceReduction' },
    );
    const b = policyPair('b', [asrSetting([[OBFUSCATED, 'audit']])], [include(G1)], { templateFamily: 'endpointSecurityAttackSurfaceReduction' });
    const derived = deriveSettingConflicts(records(a, b));
    expect(derived.findings).toEqual([
      expect.objectContaining({ kind: 'security-setting-conflict', subjectId: OBFUSCATED, ruleKey: 'a,b', detail: expect.stringContaining('Both reach group "Finance devices"') }),
    ]);
  });

  it('calls a plain setting conflict medium, the same value a duplicate, and different groups a possible conflict', () => {
    const conflict = deriveSettingConflicts(records(policyPair('a', [camera('0')], [allDevices]), policyPair('b', [camera('1')], [allDevices])));
    expect(conflict.findings.map((finding) => finding.kind)).toEqual(['setting-conflict']);
    const duplicate = deriveSettingConflicts(records(policyPair('a', [camera('1')], [allDevices]), policyPair('b', [camera('1')], [allDevices])));
    expect(duplicate.findings.map((finding) => finding.kind)).toEqual(['duplicate-setting']);
    const possible = deriveSettingConflicts(records(policyPair('a', [camera('0')], [include(G1)]), policyPair('b', [camera('1')], [include(G2)])));
    expect(possible.findings).toEqual([expect.objectContaining({ kind: 'possible-setting-conflict', detail: expect.stringContaining('different groups') })]);
    // A duplicate is not claimed where the overlap is not proven.
    const unsureDuplicate = deriveSettingConflicts(records(policyPair('a', [camera('1')], [include(G1)]), policyPair('b', [camera('1')], [include(G2)])));
    expect(unsureDuplicate.findings).toEqual([]);
  });

  it('finds nothing for disjoint targets, and nothing for settings Intune merges', () => {
    expect(deriveSettingConflicts(records(policyPair('a', [firewall('false')], [include(G1), exclude(G1)]), policyPair('b', [firewall('true')], [include(G1)]))).findings).toEqual(
      [],
    );
    const paths = [...MERGED_SETTINGS][0]!;
    const list = (items: string[]) =>
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingCollectionInstance',
        settingDefinitionId: paths,
        simpleSettingCollectionValue: items.map((value) => ({ '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value })),
      });
    expect(deriveSettingConflicts(records(policyPair('a', [list(['C:\\a'])], [allDevices]), policyPair('b', [list(['C:\\b'])], [allDevices]))).findings).toEqual([]);
  });

  it('makes two secret values a possible conflict, never showing them', () => {
    const secret = (value: string) =>
      setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
        settingDefinitionId: 'device_vendor_msft_wifi_key',
        simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationSecretSettingValue', value },
      });
    const derived = deriveSettingConflicts(records(policyPair('a', [secret('one')], [allDevices]), policyPair('b', [secret('two')], [allDevices])));
    expect(derived.findings).toEqual([expect.objectContaining({ kind: 'possible-setting-conflict', detail: expect.stringContaining('secret') })]);
    expect(JSON.stringify(derived)).not.toMatch(/"one"|"two"|: one|: two/);
  });

  it('finds a proven conflict among many setters through the target index, naming the pair that decides it', () => {
    const camera = (value: string) => setting(choiceInstance(CAMERA, `${CAMERA}_${value}`));
    const many = Array.from({ length: 30 }, (_, index) =>
      policyPair(
        `p${String(index).padStart(2, '0')}`,
        [camera(index === 29 ? '0' : '1')],
        [include(index >= 28 ? G1 : G2, index >= 28 ? { mode: 'none' } : { mode: 'include', id: 'f' })],
      ),
    );
    const derived = deriveSettingConflicts(records(...many));
    expect(derived.findings).toEqual([expect.objectContaining({ kind: 'setting-conflict', ruleKey: 'p28,p29', detail: expect.stringContaining('and 20 more') })]);
  });

  it('finds a proven conflict between two setters of a shared target when the first setter pairs only as possible', () => {
    // The first policy (by id) sets the camera to a secret value: with it, any pair is only possible. The next two set 0 and 1.
    const secretCamera = setting({
      '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
      settingDefinitionId: CAMERA,
      simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationSecretSettingValue', value: 'hidden' },
    });
    const derived = deriveSettingConflicts(
      records(policyPair('a', [secretCamera], [allDevices]), policyPair('b', [camera('0')], [allDevices]), policyPair('c', [camera('1')], [allDevices])),
    );
    expect(derived.findings).toEqual([expect.objectContaining({ kind: 'setting-conflict', ruleKey: 'b,c' })]);
  });

  it('decides on the same pair whatever order Graph lists the policies in, so a finding keeps its identity', () => {
    const pairs = [policyPair('c', [camera('0')], [allDevices]), policyPair('a', [camera('1')], [allDevices]), policyPair('b', [camera('0')], [allDevices])];
    const listed = deriveSettingConflicts(records(...pairs)).findings;
    const reversed = deriveSettingConflicts(records(...[...pairs].reverse())).findings;
    expect(listed.map((finding) => finding.ruleKey)).toEqual(['a,b']);
    expect(reversed).toEqual(listed);
  });

  it('keeps the Overlap cell to a few words and says the whole reason in the finding', () => {
    const derived = deriveSettingConflicts(records(policyPair('a', [camera('0')], [include(G1)]), policyPair('b', [camera('1')], [include(G2)])));
    expect(derived.rows).toEqual([expect.objectContaining({ overlap: 'Cannot tell: members not read' })]);
    expect(derived.findings).toEqual([
      expect.objectContaining({
        kind: 'possible-setting-conflict',
        detail: expect.stringContaining('are different groups, and not all of who they hold was seen: the members of group "Finance devices" were not read'),
      }),
    ]);
  });

  it('finds no conflict between two firewall rule policies with one different rule each: two rules, merged on the device', () => {
    const a = policyPair('a', [firewallRule('Allow RDP', '3389')], [allDevices]);
    const b = policyPair('b', [firewallRule('Block SMB', '445')], [allDevices]);
    expect(deriveSettingConflicts(records(a, b)).findings).toEqual([]);
    // Without the definitions, the same: each list is compared whole, and the rules merge.
    const unread = deriveSettingConflicts(
      records(policyPair('a', [firewallRule('Allow RDP', '3389', 'not read')], [allDevices]), policyPair('b', [firewallRule('Block SMB', '445', 'not read')], [allDevices])),
    );
    expect(unread.findings).toEqual([]);
  });

  it('compares a list Microsoft documents no merge for whole: different entries conflict on the list, never on the children of a rule', () => {
    const LIST = 'device_vendor_msft_example_list';
    const entry = (port: string) => ({
      ...setting({
        '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
        settingDefinitionId: LIST,
        groupSettingCollectionValue: [{ children: [stringInstance(`${LIST}_port`, port)] }],
      }),
      settingDefinitions: [collectionDefinition(LIST, 10)],
    });
    const derived = deriveSettingConflicts(records(policyPair('a', [entry('80')], [allDevices]), policyPair('b', [entry('443')], [allDevices])));
    expect(derived.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([['setting-conflict', LIST]]);
  });

  it('leaves a policy whose settings were not read unchecked rather than clean, by the settings its findings are about', () => {
    const a = policyPair('a', [], [allDevices], { values: null, settingsError: 'reading its settings failed: 503' });
    const derived = deriveSettingConflicts(records(a, policyPair('b', [camera('1')], [allDevices]), policyPair('c', [camera('0')], [include(EMPTY)])));
    expect(derived.findings).toEqual([]);
    // Findings are about settings: every setting a policy that may share devices with it sets is unchecked.
    expect(derived.uncheckedSubjects).toContainEqual({ kind: 'setting-conflict', subjectId: CAMERA });
    expect(derived.uncheckedSubjects).toContainEqual({ kind: 'security-setting-conflict', subjectId: CAMERA });
    expect(derived.uncheckedSubjects!.map((subject) => subject.subjectId)).not.toContain('a');
    expect(derived.rows).toEqual([
      expect.objectContaining({ verdict: 'Could not check', policies: expect.stringContaining('reading its settings failed: 503'), overlap: 'Settings not read' }),
    ]);
  });
});

describe("the settings' display names", () => {
  const definition = (id: string, displayName: unknown) => ({ '@odata.type': '#microsoft.graph.deviceManagementConfigurationSettingDefinition', id, displayName });

  it("takes each set setting's name from the definitions expanded with the settings, children included, and no other", () => {
    const settings = [
      {
        ...setting(asrInstance([[OBFUSCATED, 'block']])),
        settingDefinitions: [
          { ...collectionDefinition(ASR, 1), displayName: 'Attack Surface Reduction Rules' },
          definition(OBFUSCATED, ' Block execution of potentially obfuscated scripts '),
        ],
      },
      { ...camera('0'), settingDefinitions: [definition('device_vendor_msft_policy_config_unset', 'Not set here'), definition(CAMERA, '')] },
    ];
    // The ASR group itself is not a value (its rules are), the camera's definition has no name, and a definition of a setting not set is not kept.
    expect(settingNames(settings, settingValues(settings))).toEqual({ [OBFUSCATED]: 'Block execution of potentially obfuscated scripts' });
  });

  it("shows a choice by its option's display name, found by the option's itemId, children included; an option no definition names by its id", () => {
    const choiceDefinition = (id: string, options: Array<[string, string]>) => ({
      '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingDefinition',
      id,
      displayName: 'a choice',
      options: options.map(([suffix, displayName]) => ({ itemId: `${id}_${suffix}`, displayName })),
    });
    const settings = [
      {
        ...setting(
          asrInstance([
            [OBFUSCATED, 'block'],
            [PSEXEC, 'audit'],
          ]),
        ),
        settingDefinitions: [
          collectionDefinition(ASR, 1),
          choiceDefinition(OBFUSCATED, [
            ['off', 'Off'],
            ['block', 'Block'],
          ]),
          definition(PSEXEC, 'PsExec'),
        ],
      },
      {
        ...camera('0'),
        settingDefinitions: [
          choiceDefinition(CAMERA, [
            ['0', ' Not allowed. '],
            ['1', 'Allowed.'],
          ]),
        ],
      },
    ];
    expect(settingValues(settings).map((value) => [value.settingDefinitionId, value.value, value.display])).toEqual([
      [OBFUSCATED, `${OBFUSCATED}_block`, 'Block'],
      // No option came with this definition: the option id less its setting's prefix, never a name made up.
      [PSEXEC, `${PSEXEC}_audit`, 'audit'],
      // The id stays the value compared; only the display is the option's name.
      [CAMERA, `${CAMERA}_0`, 'Not allowed.'],
    ]);
  });

  it('says once, in the notice, how many settings are shown by id, never row by row', () => {
    const a = policyPair('a', [camera('1'), firewall('true')], [include(G1)]);
    const b = policyPair('b', [camera('0'), firewall('false')], [include(G1)]);
    expect(deriveSettingConflicts(records(a, b)).notice).toBe(
      "2 settings are shown by their settings catalog id, and their choices by option id: Graph sent no definition for them with the policies' settings.",
    );
    const one = deriveSettingConflicts({ ...records(a, b), definitionNames: new Map([[CAMERA, 'Allow Camera']]) });
    expect(one.notice).toBe("1 setting is shown by its settings catalog id, and its choices by option id: Graph sent no definition for it with the policies' settings.");
    const all = deriveSettingConflicts({
      ...records(a, b),
      definitionNames: new Map([
        [CAMERA, 'Allow Camera'],
        [FIREWALL, 'Enable Public Network Firewall'],
      ]),
    });
    expect(all.notice).toBeNull();
  });

  it('names a row and its finding by the display name, keeps the id as the subject, and names a setting without one by its id', () => {
    const a = policyPair('a', [camera('1')], [include(G1)]);
    const b = policyPair('b', [camera('0')], [include(G1)]);
    const named = deriveSettingConflicts({ ...records(a, b), definitionNames: new Map([[CAMERA, 'Allow Camera']]) });
    expect(named.findings[0]).toMatchObject({ kind: 'setting-conflict', subjectId: CAMERA, subjectName: 'Allow Camera', ruleKey: 'a,b' });
    expect(named.rows[0]).toMatchObject({ id: CAMERA, setting: 'Allow Camera' });
    expect(named.findings[0]!.detail).toMatch(new RegExp(`^Setting id ${CAMERA}\\. "Policy a" sets`));
    const unnamed = deriveSettingConflicts(records(a, b));
    expect(unnamed.findings[0]).toMatchObject({ subjectId: CAMERA, subjectName: CAMERA, ruleKey: 'a,b' });
    expect(unnamed.rows[0]).toMatchObject({ setting: CAMERA });
    expect(unnamed.findings[0]!.detail).toMatch(/^"Policy a" sets/);
  });

  it('gathers the names report 3 read per policy, the first given for an id', () => {
    const names = definitionNames({
      policies: [{ settingNames: { [CAMERA]: 'Allow Camera' } }, {}, { settingNames: { [CAMERA]: 'Camera (other)', [FIREWALL]: 'Enable Public Network Firewall' } }] as never,
    });
    expect([...names]).toEqual([
      [CAMERA, 'Allow Camera'],
      [FIREWALL, 'Enable Public Network Firewall'],
    ]);
  });
});

describe('the conflicts devices reported', () => {
  const entry = {
    id: 'a_b',
    profiles: [
      { id: 'a', name: 'Restrictions', sourceType: 'deviceConfiguration' },
      { id: 'b', name: null, sourceType: 'deviceConfiguration' },
    ],
    settings: ['cameraBlocked', 'bluetoothBlocked'],
    deviceCheckinsImpacted: 4,
  };

  it('makes one row and one finding per entry, as loud as the kind, the profiles named or else by id, the settings in words with their properties in the detail', () => {
    const derived = deriveSettingConflicts({ ...records(), reported: { ok: true, value: [entry] } });
    expect(derived.findings).toEqual([
      {
        kind: 'reported-setting-conflict',
        subjectId: 'a_b',
        subjectName: 'Camera, Bluetooth',
        detail:
          'Intune reports "Restrictions" and "b" in conflict on Camera, Bluetooth (cameraBlocked, bluetoothBlocked): 4 device check-ins impacted. Intune applies neither value on those devices. Not predicted here: "Restrictions" was not among the profiles read.',
      },
    ]);
    expect(derived.rows).toEqual([
      expect.objectContaining({ id: 'a_b', setting: 'Camera, Bluetooth', verdict: 'Reported', verdictTone: 'warning', policies: '"Restrictions"; "b"' }),
    ]);
    expect(derived.columns.some((column) => column.key === 'conflictSummary')).toBe(false);
  });

  it('says why it could not check when the summary was not read, and finds nothing from it', () => {
    const derived = deriveSettingConflicts({ ...records(), reported: { ok: false, reason: 'the conflicts devices reported could not be read: 503' } });
    expect(derived.findings).toEqual([]);
    expect(derived.rows).toEqual([
      expect.objectContaining({ verdict: 'Could not check', verdictTone: 'neutral', policies: 'the conflicts devices reported could not be read: 503' }),
    ]);
    expect(derived.columns.find((column) => column.key === 'conflictSummary')?.available).toBe(false);
  });
});

describe('classic profile properties in words', () => {
  it("names a property as Microsoft's settings page names the field, else by its own words", () => {
    expect(classicSettingName('cameraBlocked')).toBe('Camera');
    expect(classicSettingName('passwordMinimumLength')).toBe('Minimum password length');
    expect(classicSettingName('wiFiBlockManualConfiguration')).toBe('Wi Fi Block Manual Configuration');
    expect(classicSettingName('usbBlocked')).toBe('USB Blocked');
    expect(classicSettingName('toString')).toBe('To String');
  });

  it("shows a boolean in the property's own sense, never true or false, and a number as it is", () => {
    expect(classicSettingValue('cameraBlocked', true)).toBe('Blocked');
    expect(classicSettingValue('cameraBlocked', false)).toBe('Not configured');
    expect(classicSettingValue('storageBlockRemovableStorage', true)).toBe('Blocked');
    expect(classicSettingValue('passwordRequired', true)).toBe('Required');
    expect(classicSettingValue('defenderEnabled', true)).toBe('Enabled');
    expect(classicSettingValue('smartScreenAppInstallControl', true)).toBe('Yes');
    expect(classicSettingValue('passwordMinimumLength', 8)).toBe('8');
    expect(classicSettingValue('passwordMinimumLength', null)).toBe('Not configured');
  });
});

describe('what is compared: never a clean "no conflict" while a kind that can conflict was not compared', () => {
  const classic = (kind: AssignableObject['kind'], id: string, targets: AssignmentTarget[] | null): AssignableObject => ({ kind, id, name: `Classic ${id}`, targets, link: '' });

  it('names the classic profiles, Administrative Templates and intents assigned in the notice of an empty report, and the kinds in the summary', () => {
    const lone = records(policyPair('a', [camera('1')], [include(G1)]));
    expect(deriveSettingConflicts(lone).notice).toBe('No setting is set by two policies that reach the same devices or users.');

    const withClassic: SettingConflictRecords = {
      ...lone,
      assignments: {
        ...lone.assignments,
        objects: [
          ...lone.assignments.objects,
          { ...classic('deviceConfiguration', 'custom', [include(G1)]), odataType: '#microsoft.graph.windows10CustomConfiguration' },
          { ...classic('deviceConfiguration', 'unread', null), odataType: '#microsoft.graph.windowsWifiConfiguration' },
          // A device restrictions profile is read and compared: not named as not compared.
          { ...classic('deviceConfiguration', 'restrictions', [include(G1)]), odataType: '#microsoft.graph.windows10GeneralConfiguration' },
          classic('administrativeTemplate', 'admx', [allDevices]),
          // An exclusion alone reaches no one: not counted.
          classic('intent', 'excluded-only', [exclude(G2)]),
        ],
      },
    };
    const empty = deriveSettingConflicts(withClassic);
    expect(empty.state).toBe('empty');
    expect(empty.notice).toBe(
      "No setting is set by two of the policies compared (settings catalog policies, endpoint security policies and security baselines in the settings catalog's format, and device restrictions profiles) that reach the same devices or users. " +
        'Not compared, as their settings are not read: 2 configuration profiles other than device restrictions and 1 Administrative Template assigned in this tenant. Two of them, or one of them and a policy compared, may still set one setting differently; the conflicts devices reported among them are shown.',
    );
    expect(uncomparedSentence([classic('intent', 'x', [allDevices])])).toContain('1 security baseline or endpoint security policy of the older templates assigned');

    const loaded = deriveSettingConflicts({
      ...withClassic,
      policies: [...withClassic.policies, policyPair('b', [camera('0')], [include(G1)]).policy],
      assignments: { ...withClassic.assignments, objects: [...withClassic.assignments.objects, policyPair('b', [], [include(G1)]).object] },
    });
    expect(loaded.rows).toHaveLength(1);
    // With rows, no "none" is said: the notice keeps to what it must say, and the report's summary names the kinds not compared.
    expect(loaded.notice).not.toContain('Not compared');
    expect(settingConflictsReport.summary).toContain(
      'Other configuration profiles, Administrative Templates, and security baselines and endpoint security policies of the older templates are not compared',
    );
  });
});

describe('device restrictions profiles, compared field by field', () => {
  const WINDOWS = '#microsoft.graph.windows10GeneralConfiguration';
  function profilePair(id: string, fields: Record<string, unknown>, targets: AssignmentTarget[], odataType = WINDOWS): { policy: ConflictPolicy; object: AssignableObject } {
    const name = `Profile ${id}`;
    return {
      policy: {
        id,
        name,
        templateFamily: 'none',
        platforms: '',
        values: classicProfileValues({ '@odata.type': odataType, id, displayName: name, ...fields }),
        settingsError: null,
        link: null,
      },
      object: { kind: 'deviceConfiguration', id, name, targets, link: '', odataType },
    };
  }
  function withNames(pairs: Array<{ policy: ConflictPolicy; object: AssignableObject }>): SettingConflictRecords {
    const base = records(...pairs);
    return { ...base, definitionNames: classicSettingNames(pairs.flatMap((pair) => pair.policy.values ?? [])) };
  }

  it('takes a field as set when it is true, a number or a text other than an unset member; never a list, nor what names the profile', () => {
    const values = classicProfileValues({
      '@odata.type': WINDOWS,
      id: 'p',
      displayName: 'Restrictions',
      version: 3,
      passwordMinimumLength: 8,
      bluetoothBlocked: true,
      screenCaptureBlocked: false,
      passwordRequiredType: 'deviceDefault',
      edgeSearchEngine: 'notConfigured',
      defenderScanType: 'quick',
      edgeHomepageUrls: ['https://contoso.example'],
      passwordExpirationDays: null,
      cameraBlocked: true,
    });
    expect(values.map((value) => [value.settingDefinitionId, value.value, value.display])).toEqual([
      ['windows10GeneralConfiguration/passwordMinimumLength', '8', '8'],
      ['windows10GeneralConfiguration/bluetoothBlocked', 'true', 'Blocked'],
      ['windows10GeneralConfiguration/defenderScanType', 'quick', 'quick'],
      // Microsoft's page names the Camera field's CSP: it is the settings catalog's Allow Camera, its Block option 0.
      ['device_vendor_msft_policy_config_camera_allowcamera', 'device_vendor_msft_policy_config_camera_allowcamera_0', 'Blocked'],
    ]);
  });

  it('finds a profile that blocks the camera and a settings catalog policy that allows it for the same group a conflict, where no conflict was said before', () => {
    const derived = deriveSettingConflicts(withNames([profilePair('p', { cameraBlocked: true }, [include(G1)]), policyPair('a', [camera('1')], [include(G1)])]));
    expect(derived.findings).toEqual([
      expect.objectContaining({
        kind: 'setting-conflict',
        subjectId: CAMERA,
        detail: expect.stringContaining('"Policy a" sets 1 and "Profile p" sets Blocked: the values differ'),
      }),
    ]);
    expect(derived.notice ?? '').not.toContain('No setting is set');
    // Not configured sets nothing: no conflict with the policy that allows it.
    expect(deriveSettingConflicts(withNames([profilePair('p', { cameraBlocked: false }, [include(G1)]), policyPair('a', [camera('1')], [include(G1)])])).findings).toEqual([]);
  });

  it('finds two profiles of one type that set a field differently for the same group a conflict, named as the admin center names the field; profiles of two platforms never meet', () => {
    const derived = deriveSettingConflicts(
      withNames([profilePair('p', { passwordMinimumLength: 8 }, [include(G1)]), profilePair('q', { passwordMinimumLength: 12 }, [include(G1)])]),
    );
    expect(derived.rows).toEqual([expect.objectContaining({ setting: 'Minimum password length', verdict: 'Conflict' })]);
    expect(derived.findings).toEqual([expect.objectContaining({ kind: 'setting-conflict', subjectId: 'windows10GeneralConfiguration/passwordMinimumLength' })]);
    const same = deriveSettingConflicts(withNames([profilePair('p', { passwordMinimumLength: 8 }, [include(G1)]), profilePair('q', { passwordMinimumLength: 8 }, [include(G1)])]));
    expect(same.findings.map((finding) => finding.kind)).toEqual(['duplicate-setting']);
    const ios = deriveSettingConflicts(
      withNames([
        profilePair('p', { passcodeMinimumLength: 6 }, [include(G1)]),
        profilePair('q', { passcodeMinimumLength: 4 }, [include(G1)], '#microsoft.graph.androidGeneralDeviceConfiguration'),
      ]),
    );
    expect(ios.findings).toEqual([]);
  });

  it('holds each predicted conflict between two profiles beside what devices reported: confirmed, not reported yet, or reported and not predicted, saying why', () => {
    const pairs = [
      profilePair('p1', { passwordMinimumLength: 8 }, [include(G1)]),
      profilePair('p2', { passwordMinimumLength: 12 }, [include(G1)]),
      profilePair('q1', { passwordExpirationDays: 30 }, [include(G2)]),
      profilePair('q2', { passwordExpirationDays: 90 }, [include(G2)]),
      profilePair('r1', { cameraBlocked: false }, [include(G1)]),
      profilePair('r2', { cameraBlocked: true }, [include(G1)]),
    ];
    const reported = (ids: [string, string], settings: string[], checkins: number) => ({
      id: ids.join('_'),
      profiles: ids.map((id) => ({ id, name: `Profile ${id}`, sourceType: 'deviceConfiguration' })),
      settings,
      deviceCheckinsImpacted: checkins,
    });
    const derived = deriveSettingConflicts({
      ...withNames(pairs),
      reported: { ok: true, value: [reported(['p1', 'p2'], ['passwordMinimumLength'], 3), reported(['r1', 'r2'], ['cameraBlocked'], 7)] },
    });
    const finding = (subjectId: string) => derived.findings.find((candidate) => candidate.subjectId === subjectId)!;
    expect(finding('windows10GeneralConfiguration/passwordMinimumLength').detail).toContain('Devices reported these two profiles in conflict (3 check-ins).');
    expect(finding('windows10GeneralConfiguration/passwordExpirationDays').detail).toContain('Devices have not reported these two profiles in conflict yet.');
    expect(finding('p1_p2').detail).toContain('Predicted here from the profiles');
    expect(finding('r1_r2').detail).toContain('Not predicted here: as read, only "Profile r2" sets Camera; the other leaves it Not configured.');
    expect(derived.headline).toBe(
      '1 of 2 predicted conflicts between configuration profiles confirmed by devices; 1 reported that was not predicted (as read, only "Profile r2" sets Camera; the other leaves it Not configured).',
    );
    // Nothing to hold beside: no line.
    expect(deriveSettingConflicts(records(policyPair('a', [camera('1')], [include(G1)]))).headline).toBeNull();
  });

  it('says why each reported conflict was not predicted: more than two profiles, no setting named, a profile not read, the older templates, the same value as read; past two reasons, "and more"', () => {
    const pairs = [profilePair('s1', { passwordMinimumLength: 8 }, [include(G1)]), profilePair('s2', { passwordMinimumLength: 8 }, [include(G1)])];
    const reported = (id: string, profiles: Array<[string, string]>, settings: string[]) => ({
      id,
      profiles: profiles.map(([profileId, sourceType]) => ({ id: profileId, name: `Profile ${profileId}`, sourceType })),
      settings,
      deviceCheckinsImpacted: 1,
    });
    const derived = deriveSettingConflicts({
      ...withNames(pairs),
      reported: {
        ok: true,
        value: [
          reported(
            'three',
            [
              ['s1', 'deviceConfiguration'],
              ['s2', 'deviceConfiguration'],
              ['s3', 'deviceConfiguration'],
            ],
            ['passwordMinimumLength'],
          ),
          reported(
            'none',
            [
              ['s1', 'deviceConfiguration'],
              ['s2', 'deviceConfiguration'],
            ],
            [],
          ),
          reported(
            'unread',
            [
              ['s1', 'deviceConfiguration'],
              ['gone', 'deviceConfiguration'],
            ],
            ['passwordMinimumLength'],
          ),
          reported(
            'older',
            [
              ['s1', 'deviceConfiguration'],
              ['baseline', 'deviceIntent'],
            ],
            ['passwordMinimumLength'],
          ),
          reported(
            'same',
            [
              ['s1', 'deviceConfiguration'],
              ['s2', 'deviceConfiguration'],
            ],
            ['passwordMinimumLength'],
          ),
        ],
      },
    });
    const why = (subjectId: string) => derived.findings.find((candidate) => candidate.subjectId === subjectId)?.detail ?? '';
    expect(why('three')).toContain('Not predicted here: Intune names other than two profiles in it.');
    expect(why('none')).toContain('Not predicted here: Graph named no setting in it.');
    expect(why('unread')).toContain('Not predicted here: "Profile gone" was not among the profiles read.');
    expect(why('older')).toContain(
      'Not predicted here: "Profile baseline" is a security baseline or endpoint security policy of the older templates, whose settings are not read.',
    );
    expect(why('same')).toContain('Not predicted here: as read, both set Minimum password length to 8.');
    expect(derived.headline).toMatch(/5 reported that were not predicted \(.+, and more\)\.$/);
  });
});
