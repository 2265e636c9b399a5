import { describe, expect, it } from 'vitest';
import { asrRules, deriveSecurityPosture, firewallProfiles, intentBaselineVerdict, settingsCatalogBaselineVerdict } from '../../../../src/core/reports/security-posture/derive.js';
import { ASR_RULES_SETTING, relevantChoices } from '../../../../src/core/policy-settings/settings-read.js';
import type { ChoiceValue } from '../../../../src/core/policy-settings/settings-read.js';
import type { PolicyTemplate, PolicyTemplates, SecurityPolicy, SecurityPostureRecords } from '../../../../src/core/reports/security-posture/records.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';

type Intent = SecurityPostureRecords['intents'][number];
type Template = SecurityPostureRecords['templates'][number];

const now = new Date('2026-11-22T09:00:00Z');
const context: DeriveContext = { now, thresholds: DEFAULT_THRESHOLDS };

const ADOBE = `${ASR_RULES_SETTING}_blockadobereaderfromcreatingchildprocesses`;
const LSASS = `${ASR_RULES_SETTING}_blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem`;
const PSEXEC = `${ASR_RULES_SETTING}_blockprocesscreationsfrompsexecandwmicommands`;
const USB = `${ASR_RULES_SETTING}_blockuntrustedunsignedprocessesthatrunfromusb`;
const ADOBE_GUID = '7674ba52-37eb-4a4f-a9a1-f0f9a1619a2c';
const LSASS_GUID = '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2';
const DOMAIN = 'vendor_msft_firewall_mdmstore_domainprofile_enablefirewall';
const PRIVATE = 'vendor_msft_firewall_mdmstore_privateprofile_enablefirewall';
const PUBLIC = 'vendor_msft_firewall_mdmstore_publicprofile_enablefirewall';
const BASELINE_GUID = '66df8dce-0166-4b82-92f7-1f74e3ca17a3';

const choice = (settingDefinitionId: string, suffix: string): ChoiceValue => ({ settingDefinitionId, value: `${settingDefinitionId}_${suffix}` });

const policy = (overrides: Partial<SecurityPolicy> = {}): SecurityPolicy => ({
  id: 'pol-1',
  name: 'Policy',
  templateFamily: 'none',
  templateId: '',
  templateDisplayName: null,
  templateDisplayVersion: null,
  lastModifiedDateTime: null,
  isAssigned: true,
  assignments: [{ targetType: 'groupAssignmentTarget', source: 'direct' }],
  technologies: 'mdm,microsoftSense',
  platforms: 'windows10',
  choices: [],
  settingCount: 1,
  settingsRead: 1,
  settingsPaged: true,
  settingsError: null,
  ...overrides,
});

const asrPolicy = (id: string, name: string, choices: ChoiceValue[]) =>
  policy({ id, name, templateFamily: 'endpointSecurityAttackSurfaceReduction', templateId: 'e8c053d6-9f95-42b1-a7f1-ebfd71c67a4b_1', choices });
const firewallPolicy = (id: string, name: string, choices: ChoiceValue[]) =>
  policy({ id, name, templateFamily: 'endpointSecurityFirewall', templateId: '6078910e-d808-4a9f-a51d-1b8a7bacb7c0_1', choices });
const baselinePolicy = (id: string, name: string, version: number, displayVersion: string | null, guid = BASELINE_GUID) =>
  policy({
    id,
    name,
    templateFamily: 'baseline',
    templateId: `${guid}_${version}`,
    templateDisplayName: 'Security Baseline for Windows 10 and later',
    templateDisplayVersion: displayVersion,
    choices: [],
  });

const template = (overrides: Partial<Template> = {}): Template => ({
  id: 'tpl-old',
  displayName: 'Security Baseline for Windows 10 and later',
  templateType: 'securityBaseline',
  templateSubtype: 'none',
  platformType: 'windows10AndLater',
  versionInfo: 'November 2021',
  publishedDateTime: '2021-11-01T00:00:00Z',
  isDeprecated: false,
  ...overrides,
});

const TEMPLATES: Template[] = [
  template(),
  template({ id: 'tpl-new', versionInfo: 'December 2023', publishedDateTime: '2023-12-01T00:00:00Z' }),
  template({ id: 'tpl-deprecated', versionInfo: 'MDM Security Baseline for May 2019', publishedDateTime: '2019-05-01T00:00:00Z', isDeprecated: true }),
  // Later, but of another type, another subtype, or deprecated: none of these supersede tpl-new.
  template({
    id: 'tpl-edge',
    displayName: 'Microsoft Edge baseline',
    templateType: 'microsoftEdgeSecurityBaseline',
    versionInfo: 'September 2025',
    publishedDateTime: '2025-09-01T00:00:00Z',
  }),
  template({ id: 'tpl-firewall-sub', templateSubtype: 'firewall', versionInfo: 'October 2025', publishedDateTime: '2025-10-01T00:00:00Z' }),
  template({ id: 'tpl-future-deprecated', versionInfo: 'Preview 2026', publishedDateTime: '2026-01-01T00:00:00Z', isDeprecated: true }),
  template({
    id: 'tpl-endpoint',
    displayName: 'Antivirus',
    templateType: 'securityTemplate',
    templateSubtype: 'antivirus',
    versionInfo: null,
    publishedDateTime: '2020-01-01T00:00:00Z',
  }),
];

const intent = (overrides: Partial<Intent> = {}): Intent => ({
  id: 'intent-1',
  displayName: 'Windows baseline',
  templateId: 'tpl-new',
  isMigratingToConfigurationPolicy: false,
  isAssigned: true,
  ...overrides,
});

/** Settings catalog baseline templates as Graph lists them (deviceManagementConfigurationPolicyTemplate). */
const policyTemplate = (version: number, displayVersion: string, lifecycleState: PolicyTemplate['lifecycleState'], baseId = BASELINE_GUID): PolicyTemplate => ({
  id: `${baseId}_${version}`,
  baseId,
  version,
  displayName: 'Security Baseline for Windows 10 and later',
  displayVersion,
  lifecycleState,
  templateFamily: 'baseline',
  technologies: 'mdm',
});
const POLICY_TEMPLATES: PolicyTemplates = {
  ok: true,
  value: [policyTemplate(5, '25H2', 'active'), policyTemplate(4, '24H2', 'superseded'), policyTemplate(1, '23H2', 'superseded'), policyTemplate(3, 'November 2021', 'superseded')],
};
/** The Windows family with no active version: an intent-era baseline has nothing newer there. */
const NO_ACTIVE_VERSION: PolicyTemplates = { ok: true, value: [policyTemplate(3, 'November 2021', 'superseded')] };

describe('relevantChoices', () => {
  it('finds ASR rule choices nested in groupSettingCollectionValue / children, skipping per-rule exclusions and unrelated settings', () => {
    const settings = [
      {
        id: '0',
        settingInstance: {
          '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
          settingDefinitionId: ASR_RULES_SETTING,
          groupSettingCollectionValue: [
            {
              children: [
                {
                  '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
                  settingDefinitionId: ADOBE,
                  choiceSettingValue: { value: `${ADOBE}_audit`, children: [] },
                },
                {
                  '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingCollectionInstance',
                  settingDefinitionId: `${ADOBE}_perruleexclusions`,
                  simpleSettingCollectionValue: [{ '@odata.type': '#microsoft.graph.deviceManagementConfigurationStringSettingValue', value: 'C:\\tools\\reader.exe' }],
                },
                {
                  '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
                  settingDefinitionId: LSASS,
                  choiceSettingValue: { value: `${LSASS}_block`, children: [] },
                },
              ],
            },
          ],
        },
      },
      {
        id: '1',
        settingInstance: {
          '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
          settingDefinitionId: 'device_vendor_msft_policy_config_defender_allowrealtimemonitoring',
          choiceSettingValue: { value: 'device_vendor_msft_policy_config_defender_allowrealtimemonitoring_1', children: [] },
        },
      },
    ];
    expect(relevantChoices(settings)).toEqual([
      { settingDefinitionId: ADOBE, value: `${ADOBE}_audit` },
      { settingDefinitionId: LSASS, value: `${LSASS}_block` },
    ]);
  });

  it("finds firewall choices at the top and nested under a choice value's children", () => {
    const settings = [
      {
        settingInstance: {
          settingDefinitionId: DOMAIN,
          choiceSettingValue: {
            value: `${DOMAIN}_false`,
            children: [
              {
                settingDefinitionId: 'vendor_msft_firewall_mdmstore_domainprofile_defaultinboundaction',
                choiceSettingValue: { value: 'vendor_msft_firewall_mdmstore_domainprofile_defaultinboundaction_1', children: [] },
              },
            ],
          },
        },
      },
      {
        settingInstance: {
          settingDefinitionId: 'vendor_msft_firewall_mdmstore_global_disablestatefulftp',
          choiceSettingValue: {
            value: 'vendor_msft_firewall_mdmstore_global_disablestatefulftp_true',
            children: [{ settingDefinitionId: PUBLIC, choiceSettingValue: { value: `${PUBLIC}_true`, children: [] } }],
          },
        },
      },
      { settingInstance: { settingDefinitionId: 'x', groupSettingValue: { children: [{ settingDefinitionId: PRIVATE, choiceSettingValue: { value: `${PRIVATE}_false` } }] } } },
    ];
    expect(relevantChoices(settings)).toEqual([
      { settingDefinitionId: DOMAIN, value: `${DOMAIN}_false` },
      { settingDefinitionId: PUBLIC, value: `${PUBLIC}_true` },
      { settingDefinitionId: PRIVATE, value: `${PRIVATE}_false` },
    ]);
  });

  it('returns nothing for missing or non-object settings, and ignores the ASR group setting itself', () => {
    expect(relevantChoices(undefined)).toEqual([]);
    expect(relevantChoices(null)).toEqual([]);
    expect(relevantChoices('settings')).toEqual([]);
    expect(relevantChoices([{ settingInstance: { settingDefinitionId: ASR_RULES_SETTING, choiceSettingValue: { value: `${ASR_RULES_SETTING}_audit` } } }])).toEqual([]);
  });
});

describe('asrRules', () => {
  it("reads each rule's mode with Microsoft's name", () => {
    expect(asrRules(asrPolicy('p', 'ASR', [choice(ADOBE, 'audit'), choice(LSASS, 'block'), choice(PSEXEC, 'warn'), choice(USB, 'off')]))).toEqual([
      { rule: 'blockadobereaderfromcreatingchildprocesses', name: 'Block Adobe Reader from creating child processes', mode: 'audit', modeName: 'Audit' },
      {
        rule: 'blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem',
        name: 'Block credential stealing from the Windows local security authority subsystem (lsass.exe)',
        mode: 'block',
        modeName: 'Block',
      },
      { rule: 'blockprocesscreationsfrompsexecandwmicommands', name: 'Block process creations originating from PSExec and WMI commands', mode: 'warn', modeName: 'Warn' },
      { rule: 'blockuntrustedunsignedprocessesthatrunfromusb', name: 'Block untrusted and unsigned processes that run from USB', mode: 'off', modeName: 'Off' },
    ]);
  });

  it('ignores per-rule exclusion children, unknown values and non-ASR settings', () => {
    expect(
      asrRules(
        asrPolicy('p', 'ASR', [
          { settingDefinitionId: `${ADOBE}_perruleexclusions`, value: 'C:\\tools\\reader.exe' },
          { settingDefinitionId: ADOBE, value: 'something-else' },
          choice(DOMAIN, 'false'),
        ]),
      ),
    ).toEqual([]);
  });

  it('shows a rule Microsoft added later by its raw suffix where no definition named it', () => {
    expect(asrRules(asrPolicy('p', 'ASR', [choice(`${ASR_RULES_SETTING}_blocksomethingnew`, 'audit')]))).toEqual([
      { rule: 'blocksomethingnew', name: 'blocksomethingnew', mode: 'audit', modeName: 'Audit' },
    ]);
  });

  it('names a rule and its mode as the admin center does, from the definitions read with the settings', () => {
    const id = `${ASR_RULES_SETTING}_blocksomethingnew`;
    const policy = { ...asrPolicy('p', 'ASR', [{ ...choice(id, 'audit'), optionName: 'Audit mode' }]), settingNames: { [id]: 'Block something new' } };
    expect(asrRules(policy)).toEqual([{ rule: 'blocksomethingnew', name: 'Block something new', mode: 'audit', modeName: 'Audit mode' }]);
    const firewall = { ...firewallPolicy('f', 'FW', [{ ...choice(PRIVATE, 'true'), optionName: 'True' }]), settingNames: { [PRIVATE]: 'Enable Private Network Firewall' } };
    expect(firewallProfiles(firewall)).toEqual([{ profile: 'private', enabled: true, name: 'Enable Private Network Firewall', valueName: 'True' }]);
  });
});

describe('firewallProfiles', () => {
  it('reads _false as off and _true as on', () => {
    expect(firewallProfiles(firewallPolicy('f', 'FW', [choice(DOMAIN, 'false'), choice(PRIVATE, 'true'), choice(PUBLIC, 'false')]))).toEqual([
      { profile: 'domain', enabled: false, name: 'Domain profile', valueName: 'Off' },
      { profile: 'private', enabled: true, name: 'Private profile', valueName: 'On' },
      { profile: 'public', enabled: false, name: 'Public profile', valueName: 'Off' },
    ]);
  });

  it('leaves out a profile the policy does not configure, and ignores other values', () => {
    expect(firewallProfiles(firewallPolicy('f', 'FW', [choice(PUBLIC, 'true')]))).toEqual([{ profile: 'public', enabled: true, name: 'Public profile', valueName: 'On' }]);
    expect(firewallProfiles(firewallPolicy('f', 'FW', [{ settingDefinitionId: DOMAIN, value: 'notconfigured' }, choice(ADOBE, 'audit')]))).toEqual([]);
  });
});

describe('settingsCatalogBaselineVerdict', () => {
  it('is current on an active template and outdated on a superseded one, naming the active version: the numbers in the ids are never compared', () => {
    // 23H2 is `_1` and November 2021 `_3`: a number comparison would call 23H2 the older of the two.
    expect(settingsCatalogBaselineVerdict(baselinePolicy('a', '23H2', 1, '23H2'), POLICY_TEMPLATES)).toEqual({
      status: 'outdated',
      current: '23H2',
      reason: 'on 23H2, a superseded version; 25H2 is current',
    });
    expect(settingsCatalogBaselineVerdict(baselinePolicy('b', 'Nov 2021', 3, 'November 2021'), POLICY_TEMPLATES)).toEqual({
      status: 'outdated',
      current: 'November 2021',
      reason: 'on November 2021, a superseded version; 25H2 is current',
    });
    expect(settingsCatalogBaselineVerdict(baselinePolicy('c', '25H2', 5, '25H2'), POLICY_TEMPLATES)).toEqual({ status: 'current', current: '25H2', note: null });
  });

  it('matches the template id case-insensitively, and falls back to the template for the version shown', () => {
    expect(settingsCatalogBaselineVerdict(baselinePolicy('v', 'Upper', 5, null, BASELINE_GUID.toUpperCase()), POLICY_TEMPLATES)).toEqual({
      status: 'current',
      current: '25H2',
      note: null,
    });
  });
});

describe('intentBaselineVerdict', () => {
  it('an intent whose template is deprecated is outdated', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'tpl-deprecated' }), TEMPLATES, POLICY_TEMPLATES)).toEqual({
      status: 'outdated',
      current: 'MDM Security Baseline for May 2019',
      reason: 'on MDM Security Baseline for May 2019, a deprecated version',
      template: TEMPLATES[2],
    });
  });

  it('an intent on an older template, when a later one of the same type, subtype and platform exists, is outdated', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'tpl-old' }), TEMPLATES, POLICY_TEMPLATES)).toEqual({
      status: 'outdated',
      current: 'November 2021',
      reason: 'on November 2021; December 2023 is available',
      template: TEMPLATES[0],
    });
  });

  it('an intent on the newest template of its type is current, despite later templates of other types or subtypes, or deprecated ones', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'tpl-new' }), TEMPLATES, NO_ACTIVE_VERSION)).toEqual({
      status: 'current',
      current: 'December 2023',
      note: null,
      template: TEMPLATES[1],
    });
  });

  it('matches the template id case-insensitively', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'TPL-NEW' }), TEMPLATES, NO_ACTIVE_VERSION)?.status).toBe('current');
  });

  it('an intent whose template is missing from /templates cannot be judged, so it is not outdated', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'tpl-gone' }), TEMPLATES, POLICY_TEMPLATES)).toEqual({
      status: 'unchecked',
      current: 'unknown template',
      reason: 'its template tpl-gone is not among the templates Graph returned',
      template: undefined,
    });
  });

  it('a non-baseline template type (securityTemplate) gives no verdict', () => {
    expect(intentBaselineVerdict(intent({ templateId: 'tpl-endpoint' }), TEMPLATES, POLICY_TEMPLATES)).toBeUndefined();
  });
});

describe('deriveSecurityPosture', () => {
  it('an ASR rule in audit is asr-rule-audit, one finding per policy listing every audited rule', () => {
    const report = deriveSecurityPosture(
      {
        policies: [asrPolicy('asr-1', 'ASR pilot', [choice(LSASS, 'audit'), choice(ADOBE, 'audit'), choice(PSEXEC, 'block')])],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.findings).toEqual([
      {
        kind: 'asr-rule-audit',
        subjectId: 'asr-1',
        subjectName: 'ASR pilot',
        detail:
          '2 attack surface reduction rules are in audit mode, so they only log: Block credential stealing from the Windows local security authority subsystem (lsass.exe); Block Adobe Reader from creating child processes.',
        ruleKey: [ADOBE_GUID, LSASS_GUID].sort().join(','),
      },
    ]);
    expect(report.rows.map((row) => [row.area, row.policy, row.setting, row.value, row.status])).toEqual([
      ['Attack surface reduction', 'ASR pilot', 'Block Adobe Reader from creating child processes', 'Audit', 'Audit only: not enforced'],
      ['Attack surface reduction', 'ASR pilot', 'Block credential stealing from the Windows local security authority subsystem (lsass.exe)', 'Audit', 'Audit only: not enforced'],
      ['Attack surface reduction', 'ASR pilot', 'Block process creations originating from PSExec and WMI commands', 'Block', 'Enforced'],
    ]);
  });

  it('a single audited rule reads "rule is"', () => {
    const report = deriveSecurityPosture(
      { policies: [asrPolicy('asr-1', 'ASR', [choice(ADOBE, 'audit')])], intents: [], templates: [], policyTemplates: POLICY_TEMPLATES },
      context,
    );
    expect(report.findings[0]?.detail).toMatch(/^1 attack surface reduction rule is in audit mode\b/);
    expect(report.findings[0]?.detail).toContain(': Block Adobe Reader from creating child processes.');
    expect(report.findings[0]?.ruleKey).toBe(ADOBE_GUID);
  });

  it('an ASR rule in warn is shown but is not a finding; off is not a finding either', () => {
    const report = deriveSecurityPosture(
      { policies: [asrPolicy('asr-2', 'ASR warn', [choice(ADOBE, 'warn'), choice(LSASS, 'off')])], intents: [], templates: [], policyTemplates: POLICY_TEMPLATES },
      context,
    );
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => [row.setting, row.value, row.status])).toEqual([
      ['Block Adobe Reader from creating child processes', 'Warn', 'Enforced'],
      ['Block credential stealing from the Windows local security authority subsystem (lsass.exe)', 'Off', 'Disabled by policy'],
    ]);
  });

  it('per-rule exclusion children make neither rows nor findings', () => {
    const report = deriveSecurityPosture(
      {
        policies: [asrPolicy('asr-3', 'ASR', [choice(ADOBE, 'block'), { settingDefinitionId: `${ADOBE}_perruleexclusions`, value: `${ADOBE}_perruleexclusions_audit_path` }])],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.rows.map((row) => row.setting)).toEqual(['Block Adobe Reader from creating child processes']);
    expect(report.findings).toEqual([]);
  });

  it('a firewall profile set to _false is firewall-profile-off, naming the profiles', () => {
    const report = deriveSecurityPosture(
      {
        policies: [firewallPolicy('fw-1', 'Firewall', [choice(PUBLIC, 'false'), choice(DOMAIN, 'false'), choice(PRIVATE, 'true')])],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.findings).toEqual([
      {
        kind: 'firewall-profile-off',
        subjectId: 'fw-1',
        subjectName: 'Firewall',
        detail: 'The policy switches Windows Firewall off for the public and domain profiles.',
        ruleKey: 'domain,public',
      },
    ]);
    expect(report.rows.map((row) => [row.area, row.setting, row.value, row.status])).toEqual([
      ['Firewall', 'Domain profile', 'Off', 'Firewall switched off by policy'],
      ['Firewall', 'Public profile', 'Off', 'Firewall switched off by policy'],
      ['Firewall', 'Private profile', 'On', 'Enforced'],
    ]);
  });

  it('one profile off reads "profile"', () => {
    const report = deriveSecurityPosture(
      { policies: [firewallPolicy('fw-2', 'Firewall', [choice(PRIVATE, 'false')])], intents: [], templates: [], policyTemplates: POLICY_TEMPLATES },
      context,
    );
    expect(report.findings.map((finding) => [finding.kind, finding.detail, finding.ruleKey])).toEqual([
      ['firewall-profile-off', 'The policy switches Windows Firewall off for the private profile.', 'private'],
    ]);
  });

  it('a firewall policy that leaves profiles unconfigured is not "off"', () => {
    const report = deriveSecurityPosture(
      {
        policies: [firewallPolicy('fw-3', 'Public only', [choice(PUBLIC, 'true')]), firewallPolicy('fw-4', 'Nothing', [])],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => [row.id, row.setting, row.value])).toEqual([['fw-3', 'Public profile', 'On']]);
  });

  it('an outdated settings-catalog baseline is baseline-outdated; the one on the newest version is current', () => {
    const report = deriveSecurityPosture(
      {
        policies: [baselinePolicy('bl-new', 'Windows baseline 25H2', 5, '25H2'), baselinePolicy('bl-old', 'Windows baseline 24H2', 4, '24H2')],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.findings).toEqual([
      {
        kind: 'baseline-outdated',
        subjectId: 'bl-old',
        subjectName: 'Windows baseline 24H2',
        detail: 'Baseline on 24H2, a superseded version; 25H2 is current.',
        ruleKey: `${BASELINE_GUID}_4`,
      },
    ]);
    expect(report.rows.map((row) => [row.id, row.area, row.setting, row.value, row.status])).toEqual([
      ['bl-old', 'Security baseline', 'Security Baseline for Windows 10 and later', '24H2', 'Outdated: on 24H2, a superseded version; 25H2 is current'],
      ['bl-new', 'Security baseline', 'Security Baseline for Windows 10 and later', '25H2', 'Current'],
    ]);
    expect(report.rows[0]?.link).toContain(`/policyId/bl-old/`);
  });

  it('intent baselines: deprecated and superseded templates are outdated; the newest is current; a missing template is not checked; an endpoint security intent has no row', () => {
    const report = deriveSecurityPosture(
      {
        policies: [],
        intents: [
          intent({ id: 'i-dep', displayName: 'Old MDM baseline', templateId: 'tpl-deprecated' }),
          intent({ id: 'i-old', displayName: 'Baseline 2021', templateId: 'tpl-old', isMigratingToConfigurationPolicy: true }),
          intent({ id: 'i-new', displayName: 'Baseline 2023', templateId: 'tpl-new' }),
          intent({ id: 'i-gone', displayName: 'Orphan', templateId: 'tpl-gone' }),
          intent({ id: 'i-av', displayName: 'Antivirus', templateId: 'tpl-endpoint' }),
        ],
        templates: TEMPLATES,
        policyTemplates: NO_ACTIVE_VERSION,
      },
      context,
    );
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId, finding.ruleKey])).toEqual([
      ['baseline-outdated', 'i-dep', 'tpl-deprecated'],
      ['baseline-outdated', 'i-old', 'tpl-old'],
    ]);
    expect(report.findings[0]?.detail).toBe('Baseline on MDM Security Baseline for May 2019, a deprecated version.');
    expect(report.findings[1]?.detail).toBe('Baseline on November 2021; December 2023 is available.');
    expect(report.rows.map((row) => row.id)).not.toContain('i-av');
    const old = report.rows.find((row) => row.id === 'i-old');
    expect(old).toMatchObject({
      status: 'Outdated: on November 2021; December 2023 is available (being migrated to the settings catalog)',
      link: 'https://intune.microsoft.com/#view/Microsoft_Intune_Workflows/SecurityManagementMenu/~/securityBaselines',
      value: 'November 2021',
    });
    expect(report.rows.find((row) => row.id === 'i-new')).toMatchObject({ status: 'Current', value: 'December 2023' });
    expect(report.rows.find((row) => row.id === 'i-gone')).toMatchObject({
      setting: 'Security baseline',
      value: 'unknown template',
      status: 'Could not check: its template tpl-gone is not among the templates Graph returned',
    });
  });

  it('orders rows: not enforced first, then outdated baselines, then enforced settings, then current baselines', () => {
    const report = deriveSecurityPosture(
      {
        policies: [
          asrPolicy('asr', 'ASR', [choice(ADOBE, 'block'), choice(LSASS, 'audit')]),
          firewallPolicy('fw', 'FW', [choice(DOMAIN, 'true'), choice(PUBLIC, 'false')]),
          baselinePolicy('bl-old', 'BL old', 4, '24H2'),
          baselinePolicy('bl-new', 'BL new', 5, '25H2'),
        ],
        intents: [],
        templates: [],
        policyTemplates: POLICY_TEMPLATES,
      },
      context,
    );
    expect(report.rows.map((row) => `${row.id}:${row.setting}`)).toEqual([
      'asr:Block credential stealing from the Windows local security authority subsystem (lsass.exe)',
      'fw:Public profile',
      'bl-old:Security Baseline for Windows 10 and later',
      'asr:Block Adobe Reader from creating child processes',
      'fw:Domain profile',
      'bl-new:Security Baseline for Windows 10 and later',
    ]);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([
      ['asr-rule-audit', 'asr'],
      ['firewall-profile-off', 'fw'],
      ['baseline-outdated', 'bl-old'],
    ]);
    expect(report.state).toBe('loaded');
    expect(report.columns.map((column) => column.key)).toEqual(['area', 'policy', 'setting', 'value', 'status']);
  });

  it('a tenant without ASR, firewall or baseline settings has no rows and no findings', () => {
    expect(
      deriveSecurityPosture({ policies: [policy({ id: 'plain', name: 'Wi-Fi' })], intents: [], templates: TEMPLATES, policyTemplates: NO_ACTIVE_VERSION }, context),
    ).toMatchObject({ rows: [], findings: [] });
  });
});
