import { describe, expect, it } from 'vitest';
import { deriveSettingConflicts, MERGED_SETTINGS } from '../../../../src/core/reports/setting-conflicts/derive.js';
import type { ConflictPolicy, SettingConflictRecords } from '../../../../src/core/reports/setting-conflicts/derive.js';
import { targetsOverlap } from '../../../../src/core/reports/setting-conflicts/overlap.js';
import type { TargetedPolicy } from '../../../../src/core/reports/setting-conflicts/overlap.js';
import { SECRET_DISPLAY, settingValues } from '../../../../src/core/reports/setting-conflicts/setting-values.js';
import type { GroupLookup } from '../../../../src/core/directory/group-lookup.js';
import type { AssignableObject, AssignmentTarget } from '../../../../src/core/reports/assignment-hygiene/load.js';
import { settingNames } from '../../../../src/core/reports/security-posture/load.js';
import { definitionNames } from '../../../../src/core/reports/setting-conflicts/load.js';

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
    const firewall = (value: string) => setting(choiceInstance(FIREWALL, `${FIREWALL}_${value}`));
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

  it('decides on the same pair whatever order Graph lists the policies in, so a finding keeps its identity', () => {
    const pairs = [policyPair('c', [camera('0')], [allDevices]), policyPair('a', [camera('1')], [allDevices]), policyPair('b', [camera('0')], [allDevices])];
    const listed = deriveSettingConflicts(records(...pairs)).findings;
    const reversed = deriveSettingConflicts(records(...[...pairs].reverse())).findings;
    expect(listed.map((finding) => finding.ruleKey)).toEqual(['a,b']);
    expect(reversed).toEqual(listed);
  });

  it('keeps the Overlap cell to a few words and says the whole reason in the finding', () => {
    const derived = deriveSettingConflicts(records(policyPair('a', [camera('0')], [include(G1)]), policyPair('b', [camera('1')], [include(G2)])));
    expect(derived.rows).toEqual([expect.objectContaining({ overlap: 'Cannot tell: different groups' })]);
    expect(derived.findings).toEqual([
      expect.objectContaining({ kind: 'possible-setting-conflict', detail: expect.stringContaining('are different groups, and whether they share members') }),
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

  it('makes one row and one finding per entry, as loud as the kind, the profiles named or else by id', () => {
    const derived = deriveSettingConflicts({ ...records(), reported: { ok: true, value: [entry] } });
    expect(derived.findings).toEqual([
      {
        kind: 'reported-setting-conflict',
        subjectId: 'a_b',
        subjectName: 'cameraBlocked, bluetoothBlocked',
        detail: 'Intune reports "Restrictions" and "b" in conflict on cameraBlocked, bluetoothBlocked: 4 device check-ins impacted. Intune applies neither value on those devices.',
      },
    ]);
    expect(derived.rows).toEqual([expect.objectContaining({ id: 'a_b', verdict: 'Reported', verdictTone: 'warning', policies: '"Restrictions"; "b"' })]);
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
