import { describe, expect, it } from 'vitest';
import { CONFLICTS_COMPARED, deviceConflicts } from '../../../src/core/applies/conflicts.js';
import type { AppliesConflicts, ConflictSettings } from '../../../src/core/applies/conflicts.js';
import type { AppliesEntry, AppliesGroup, AppliesVerdict } from '../../../src/core/applies/entry-types.js';
import { conflictsSentence } from '../../../src/core/applies/words.js';
import type { ConflictPolicy } from '../../../src/core/policy-settings/conflict-policy.js';
import type { SettingValue } from '../../../src/core/policy-settings/setting-values.js';

const CAMERA = 'device_vendor_msft_policy_config_camera_allowcamera';
const DEVICE_IDS = 'device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdeviceids';
const SETUP_CLASSES = 'device_vendor_msft_policy_config_deviceinstallation_preventinstallationofmatchingdevicesetupclasses';
const SETUP_CLASSES_LIST = `${SETUP_CLASSES}_deviceinstall_classes_deny_list`;
const EXCLUDED_EXTENSIONS = 'device_vendor_msft_policy_config_defender_excludedextensions';

const value = (settingDefinitionId: string, text: string): SettingValue => ({ settingDefinitionId, value: text, display: text, secret: false });

function policy(id: string, values: SettingValue[] | null, settingsError: string | null = null): ConflictPolicy {
  return { id, name: `Policy ${id}`, templateFamily: 'none', platforms: 'windows10', values, settingsError, link: `https://intune.example/${id}` };
}

function entry(id: string, verdict: AppliesVerdict, kind: AppliesEntry['kind'] = 'settingsCatalogPolicy'): AppliesEntry {
  return {
    objectId: id,
    name: `Policy ${id}`,
    kind,
    typeLabel: 'Settings catalog policies',
    link: '',
    verdict,
    intent: null,
    platform: { kind: 'for', platforms: ['windows'], words: 'Windows' },
    path: [],
    words: '',
    caveats: [],
  };
}

const groups = (...entries: AppliesEntry[]): AppliesGroup[] => [{ typeLabel: 'Settings catalog policies', entries }];
const read = (...policies: ConflictPolicy[]): ConflictSettings => ({ state: 'read', policies, auditOnly: new Set(['audit']) });

function settingsOf(conflicts: AppliesConflicts) {
  if (conflicts.state !== 'checked') throw new Error(`not checked: ${conflicts.words}`);
  return conflicts.settings;
}

describe('a device\'s setting conflicts (docs/finding-rules.md, "What applies", "Setting conflicts on a device")', () => {
  it('a different value in a policy whose verdict depends on a filter is a possible conflict, saying so; the same value there is nothing', () => {
    const conflicts = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'dependsOnFilter'), entry('c', 'unknown')),
      read(policy('a', [value(CAMERA, '1')]), policy('b', [value(CAMERA, '0')]), policy('c', [value(CAMERA, '1')])),
    );
    const [camera] = settingsOf(conflicts);
    expect(camera).toMatchObject({ kind: 'possibleConflict', settingDefinitionId: CAMERA });
    expect(camera!.words).toContain('whether "Policy b" applies depends on a filter');
    expect(camera!.policies.map((listed) => [listed.name, listed.verdict])).toEqual([
      ['Policy a', 'applies'],
      ['Policy b', 'dependsOnFilter'],
      ['Policy c', 'unknown'],
    ]);
    // The same value in a policy that may not apply is neither a conflict nor a duplicate.
    const same = deviceConflicts(groups(entry('a', 'applies'), entry('c', 'unknown')), read(policy('a', [value(CAMERA, '1')]), policy('c', [value(CAMERA, '1')])));
    expect(settingsOf(same)).toEqual([]);
  });

  it('a policy excluded or for another platform sets nothing on the device', () => {
    const conflicts = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'excluded'), entry('c', 'notForPlatform')),
      read(policy('a', [value(CAMERA, '1')]), policy('b', [value(CAMERA, '0')]), policy('c', [value(CAMERA, '0')])),
    );
    expect(settingsOf(conflicts)).toEqual([]);
  });

  it("keeps the setting conflicts report's merge rules: merged settings and Microsoft's disputed device control settings are never a proven conflict", () => {
    const conflicts = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'applies')),
      read(policy('a', [value(EXCLUDED_EXTENSIONS, '.log'), value(DEVICE_IDS, 'PCI\\1')]), policy('b', [value(EXCLUDED_EXTENSIONS, '.tmp'), value(DEVICE_IDS, 'PCI\\2')])),
    );
    const settings = settingsOf(conflicts);
    expect(settings.map((setting) => [setting.settingDefinitionId, setting.kind])).toEqual([
      [DEVICE_IDS, 'possibleConflict'],
      [EXCLUDED_EXTENSIONS, 'merged'],
    ]);
    expect(settings[0]!.words).toContain("Microsoft's pages disagree");
    expect(settings[1]!.applied).toBe('All of them, merged into one list: .log; .tmp.');
  });

  it("merges device control's setup-class lists, as the attack surface reduction policy page says Intune does: never a conflict nor a possible one", () => {
    const conflicts = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'applies')),
      read(
        policy('a', [value(SETUP_CLASSES, 'Enabled'), value(SETUP_CLASSES_LIST, '{printers}')]),
        policy('b', [value(SETUP_CLASSES, 'Enabled'), value(SETUP_CLASSES_LIST, '{bluetooth}')]),
      ),
    );
    // The setting both enable is part of the merge: neither a duplicate nor listed.
    expect(settingsOf(conflicts).map((setting) => [setting.settingDefinitionId, setting.kind, setting.applied])).toEqual([
      [SETUP_CLASSES_LIST, 'merged', 'All of them, merged into one list: {printers}; {bluetooth}.'],
    ]);
    // One policy enables it and another disables it: Microsoft does not say how those combine, so possible, never proven.
    const enabledAndDisabled = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'applies')),
      read(policy('a', [value(SETUP_CLASSES, 'Enabled')]), policy('b', [value(SETUP_CLASSES, 'Disabled')])),
    );
    expect(settingsOf(enabledAndDisabled).map((setting) => [setting.settingDefinitionId, setting.kind])).toEqual([[SETUP_CLASSES, 'possibleConflict']]);
    expect(settingsOf(enabledAndDisabled)[0]!.words).toContain('does not say how it combines the rest of the setting');
  });

  it('says which policies were not compared and why: settings not read whole, or not in the list read; an audit-only baseline sets nothing', () => {
    const conflicts = deviceConflicts(
      groups(entry('a', 'applies'), entry('b', 'applies'), entry('gone', 'applies'), entry('audit', 'applies'), entry('intent', 'applies', 'intent')),
      read(policy('a', [value(CAMERA, '1')]), policy('b', null, 'Graph answered 500')),
    );
    expect(conflicts).toEqual({
      state: 'checked',
      settings: [],
      counts: { conflict: 0, possibleConflict: 0, duplicate: 0, merged: 0 },
      notes: [
        CONFLICTS_COMPARED,
        'The settings of "Policy b" could not be read whole (Graph answered 500), so its settings are not compared.',
        '"Policy gone" was not among the policies whose settings were read (it may be newer than that read), so its settings are not compared.',
        'Not compared, as their settings are not read: "Policy intent". Two of them, or one of them and a policy compared, may still set one setting differently; Intune\'s per-setting status for the device shows that once it reports.',
      ],
      notCompared: 3,
    });
    // The sentence the card, the tab and the CLI lead with says "none" only of the policies compared.
    expect(conflictsSentence(conflicts)).toBe('No setting is set by two of the policies compared; 3 other objects that may apply could not be compared.');
  });

  it('never says "no conflict" while a classic configuration profile or an Administrative Template that may apply was not compared', () => {
    const classic = { ...entry('restrictions', 'applies', 'deviceConfiguration'), name: 'Windows - device restrictions' };
    const template = { ...entry('admx', 'dependsOnFilter', 'administrativeTemplate'), name: 'Edge - ADMX' };
    const gone = { ...entry('other-os', 'notForPlatform', 'deviceConfiguration'), name: 'iOS - restrictions' };
    const conflicts = deviceConflicts(groups(entry('a', 'applies'), classic, template, gone), read(policy('a', [value(CAMERA, '1')])));
    expect(conflicts.state === 'checked' && conflicts.notCompared).toBe(2);
    expect(conflictsSentence(conflicts)).toBe('No setting is set by two of the policies compared; 2 other objects that may apply could not be compared.');
    expect(conflicts.state === 'checked' && conflicts.notes.at(-1)).toContain('"Windows - device restrictions" and "Edge - ADMX"');
    // One that does not reach the device (another platform) is not named: it sets nothing there.
    expect(JSON.stringify(conflicts)).not.toContain('iOS - restrictions');
    // Only settings catalog policies that may apply: "none" said plainly.
    expect(conflictsSentence(deviceConflicts(groups(entry('a', 'applies')), read(policy('a', [value(CAMERA, '1')]))))).toBe(
      'No setting is set by two of the policies that may apply to it.',
    );
  });

  it('never says "no conflicts" when the settings could not be read', () => {
    const conflicts = deviceConflicts(groups(entry('a', 'applies')), { state: 'failed', reason: 'Graph answered 403' });
    expect(conflicts).toEqual({
      state: 'unread',
      words: 'Setting conflicts could not be checked: the settings of the policies could not be read (Graph answered 403). That is not "no conflicts".',
    });
  });
});
