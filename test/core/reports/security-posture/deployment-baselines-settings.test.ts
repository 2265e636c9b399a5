import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { describe, expect, it } from 'vitest';
import { MAX_AUDIT_SLICES } from '../../../../src/core/audit-story/read-audit-log.js';
import { GraphError } from '../../../../src/core/graph/graph-error.js';
import type { BatchOptions, BatchOutcome, BatchSubRequest, GraphPage, GraphReader, PagesOptions, RequestOptions } from '../../../../src/core/graph/graph-reader.js';
import type { DeriveContext } from '../../../../src/core/reports/report-model.js';
import { DEFAULT_THRESHOLDS } from '../../../../src/core/reports/thresholds.js';
import {
  deriveSecurityPosture,
  intentBaselineVerdict,
  policyDeployment,
  settingsCatalogBaselineVerdict,
  settingsCompleteness,
} from '../../../../src/core/reports/security-posture/derive.js';
import { POLICY_LIST_QUERY, SETTINGS_MEMORY, loadSecurityPosture, projectPolicy } from '../../../../src/core/reports/security-posture/load.js';
import { ASR_RULES_SETTING } from '../../../../src/core/policy-settings/settings-read.js';
import type { PolicyTemplate, PolicyTemplates, SecurityPostureRecords, Template } from '../../../../src/core/reports/security-posture/records.js';

/**
 * Report 3's rules on records shaped as Graph documents them: settings catalog
 * policies with `$expand=settings,assignments` (deviceManagementConfigurationPolicy, beta), the
 * baseline templates (deviceManagementConfigurationPolicyTemplate), intents and their templates.
 */

const context: DeriveContext = { now: new Date('2026-11-22T09:00:00Z'), thresholds: DEFAULT_THRESHOLDS };
const WINDOWS = '66df8dce-0166-4b82-92f7-1f74e3ca17a3';
const DEFENDER = '49b8320f-e179-472e-8e2c-2fde00289ca2';
const POLICY_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const AUDIT_RULE = `${ASR_RULES_SETTING}_blockpersistencethroughwmieventsubscription`;
const PUBLIC = 'vendor_msft_firewall_mdmstore_publicprofile_enablefirewall';

type GraphPolicy = Beta.DeviceManagementConfigurationPolicy & { settings?: unknown[]; 'settings@odata.nextLink'?: string };

const asrSetting = (mode: 'audit' | 'block') => ({
  id: '0',
  settingInstance: {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
    settingDefinitionId: ASR_RULES_SETTING,
    groupSettingCollectionValue: [
      {
        children: [
          {
            '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
            settingDefinitionId: AUDIT_RULE,
            choiceSettingValue: { value: `${AUDIT_RULE}_${mode}`, children: [] },
          },
        ],
      },
    ],
  },
});
const firewallOff = {
  id: '0',
  settingInstance: {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
    settingDefinitionId: PUBLIC,
    choiceSettingValue: { value: `${PUBLIC}_false`, children: [] },
  },
};
const filler = (index: number) => ({
  id: String(index),
  settingInstance: {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationSimpleSettingInstance',
    settingDefinitionId: `device_vendor_msft_policy_config_defender_setting${index}`,
    simpleSettingValue: { '@odata.type': '#microsoft.graph.deviceManagementConfigurationIntegerSettingValue', value: 1 },
  },
});

const group = (source: 'direct' | 'policySets' = 'direct') => ({
  id: `${POLICY_ID}_g`,
  source,
  sourceId: source === 'policySets' ? '7d2c1a4e-3f5b-4a6c-9e8d-1b2c3d4e5f60' : POLICY_ID,
  target: { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: 'b1a2c3d4-0000-4000-8000-000000000001', deviceAndAppManagementAssignmentFilterType: 'none' },
});
const exclusion = {
  id: `${POLICY_ID}_x`,
  source: 'direct',
  sourceId: POLICY_ID,
  target: { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: 'b1a2c3d4-0000-4000-8000-000000000002' },
};

function graphPolicy(overrides: Partial<GraphPolicy> & Record<string, unknown> = {}): GraphPolicy {
  return {
    id: POLICY_ID,
    name: 'ASR policy',
    platforms: 'windows10',
    technologies: 'mdm,microsoftSense',
    settingCount: 1,
    isAssigned: true,
    templateReference: {
      templateId: 'e8c053d6-9f95-42b1-a7f1-ebfd71c67a4b_1',
      templateFamily: 'endpointSecurityAttackSurfaceReduction',
      templateDisplayName: 'Attack Surface Reduction Rules',
      templateDisplayVersion: 'Version 1',
    },
    settings: [asrSetting('audit')],
    assignments: [group()] as Beta.DeviceManagementConfigurationPolicyAssignment[],
    ...overrides,
  } as GraphPolicy;
}

const baselinePolicy = (templateId: string, displayVersion: string, overrides: Partial<GraphPolicy> = {}) =>
  graphPolicy({
    name: `Windows ${displayVersion}`,
    settings: [],
    settingCount: 0,
    templateReference: { templateId, templateFamily: 'baseline', templateDisplayName: 'Security Baseline for Windows 10 and later', templateDisplayVersion: displayVersion },
    ...overrides,
  });

const template = (baseId: string, version: number, displayVersion: string, lifecycleState: string): PolicyTemplate => ({
  id: `${baseId}_${version}`,
  baseId,
  version,
  displayName: baseId === WINDOWS ? 'Security Baseline for Windows 10 and later' : 'Microsoft Defender for Endpoint Security Baseline',
  displayVersion,
  lifecycleState: lifecycleState as PolicyTemplate['lifecycleState'],
  templateFamily: 'baseline',
  technologies: 'mdm',
});
/** As a live tenant lists them: the version numbers are not chronological. */
const LIVE: PolicyTemplates = {
  ok: true,
  value: [
    template(WINDOWS, 5, '25H2', 'active'),
    template(WINDOWS, 4, '24H2', 'superseded'),
    template(WINDOWS, 1, '23H2', 'superseded'),
    template(WINDOWS, 3, 'November 2021', 'superseded'),
    template(WINDOWS, 6, '26H1 preview', 'draft'),
    template(WINDOWS, 7, 'Old', 'deprecated'),
    template(WINDOWS, 8, 'Older', 'retired'),
    template(WINDOWS, 10, 'Broken', 'invalid'),
    template(WINDOWS, 11, 'Future', 'somethingNew'),
    template(DEFENDER, 1, '24H1', 'active'),
    template(DEFENDER, 3, 'Version 6', 'superseded'),
  ],
};
const FAILED: PolicyTemplates = { ok: false, reason: 'the baseline templates could not be read: Graph answered 503' };

const records = (policies: GraphPolicy[], more: Partial<SecurityPostureRecords> = {}): SecurityPostureRecords => ({
  policies: policies.map(projectPolicy),
  intents: [],
  templates: [],
  policyTemplates: LIVE,
  ...more,
});

/** The kinds a derived report left unchecked for some subject, each once. */
function uncheckedKinds(report: { uncheckedSubjects?: Array<{ kind: string }> }): string[] {
  return [...new Set((report.uncheckedSubjects ?? []).map(({ kind }) => kind))].sort();
}
describe('deployed or not', () => {
  it('a policy assigned to no one (assignments [] and isAssigned false) enforces nothing: no finding, shown as not deployed', () => {
    const report = deriveSecurityPosture(records([graphPolicy({ assignments: [], isAssigned: false })]), context);
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => [row.value, row.status, row.statusTone])).toEqual([['Audit', 'Not deployed (assigned to no one)', 'neutral']]);
  });

  it('a policy assigned only to exclusion groups reaches no one', () => {
    const policy = graphPolicy({ name: 'Firewall', settings: [firewallOff], assignments: [exclusion] as Beta.DeviceManagementConfigurationPolicyAssignment[] });
    const report = deriveSecurityPosture(records([policy]), context);
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => row.status)).toEqual(['Not deployed (assigned to no one)']);
  });

  it('an assignment made through a policy set deploys the policy', () => {
    const policy = graphPolicy({
      name: 'Firewall',
      settings: [firewallOff],
      assignments: [group('policySets'), exclusion] as Beta.DeviceManagementConfigurationPolicyAssignment[],
    });
    expect(deriveSecurityPosture(records([policy]), context).findings.map((finding) => finding.kind)).toEqual(['firewall-profile-off']);
  });

  it.each([
    ['all users', { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' }],
    ['all devices', { '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget' }],
    ['a Configuration Manager collection', { '@odata.type': '#microsoft.graph.configurationManagerCollectionAssignmentTarget', collectionId: 'SMS00001' }],
    ['a target type this code does not know', { '@odata.type': '#microsoft.graph.someFutureAssignmentTarget' }],
    ['a target without a type', {}],
  ])('an include target of %s deploys the policy', (_name, target) => {
    const policy = projectPolicy(graphPolicy({ assignments: [{ id: 'a', source: 'direct', target }] as Beta.DeviceManagementConfigurationPolicyAssignment[] }));
    expect(policyDeployment(policy).state).toBe('deployed');
  });

  it('isAssigned true with no assignments listed is judged as deployed, and says so', () => {
    const report = deriveSecurityPosture(records([graphPolicy({ assignments: [], isAssigned: true })]), context);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['asr-rule-audit']);
    expect(report.rows[0]?.status).toBe('Audit only: not enforced (Graph reports it assigned without listing the assignments)');
  });

  it('without assignments in the payload, isAssigned decides; without either, the policy is judged and the row says deployment could not be checked', () => {
    const { assignments: _assignments, ...noAssignments } = graphPolicy();
    expect(policyDeployment(projectPolicy({ ...noAssignments, isAssigned: true })).state).toBe('deployed');
    expect(policyDeployment(projectPolicy({ ...noAssignments, isAssigned: false })).state).toBe('not-deployed');
    const { isAssigned: _isAssigned, ...neither } = noAssignments;
    const report = deriveSecurityPosture(records([neither]), context);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['asr-rule-audit']);
    expect(report.findings[0]?.detail).toMatch(/ Whether the policy is assigned could not be checked\.$/);
    expect(report.rows[0]?.status).toBe('Audit only: not enforced; whether the policy is assigned could not be checked');
  });

  it('an unassigned baseline copy (what "update version" leaves) makes no outdated finding, while its assigned original does', () => {
    const original = baselinePolicy(`${WINDOWS}_4`, '24H2', { id: 'a1b2c3d4-0000-4000-8000-000000000004' });
    const copy = baselinePolicy(`${WINDOWS}_4`, '24H2', { id: 'a1b2c3d4-0000-4000-8000-000000000005', name: 'Windows 24H2 copy', assignments: [], isAssigned: false });
    const report = deriveSecurityPosture(records([original, copy]), context);
    expect(report.findings.map((finding) => [finding.kind, finding.subjectId])).toEqual([['baseline-outdated', original.id]]);
    expect(report.rows.find((row) => row.id === copy.id)?.status).toBe('Not deployed (assigned to no one)');
  });

  it('an intent with isAssigned false makes no outdated finding', () => {
    const templates: Template[] = [
      {
        id: 'tpl',
        displayName: 'MDM Security Baseline',
        templateType: 'securityBaseline',
        templateSubtype: 'none',
        platformType: 'windows10AndLater',
        versionInfo: 'November 2021',
        publishedDateTime: '2021-11-15T00:00:00Z',
        isDeprecated: true,
      },
    ];
    const report = deriveSecurityPosture(
      records([], { intents: [{ id: 'i', displayName: 'Old baseline', templateId: 'tpl', isMigratingToConfigurationPolicy: false, isAssigned: false }], templates }),
      context,
    );
    expect(report.findings).toEqual([]);
    expect(report.rows[0]?.status).toBe('Not deployed (assigned to no one)');
  });
});

describe('settings catalog baselines by lifecycle state', () => {
  const verdict = (templateId: string, policyTemplates: PolicyTemplates = LIVE) =>
    settingsCatalogBaselineVerdict(projectPolicy(baselinePolicy(templateId, 'shown version')), policyTemplates);

  it.each([
    ['active', `${WINDOWS}_5`, { status: 'current', current: 'shown version', note: null }],
    ['superseded', `${WINDOWS}_4`, { status: 'outdated', current: 'shown version', reason: 'on shown version, a superseded version; 25H2 is current' }],
    ['deprecated', `${WINDOWS}_7`, { status: 'outdated', current: 'shown version', reason: 'on shown version, a deprecated version; 25H2 is current' }],
    ['retired', `${WINDOWS}_8`, { status: 'outdated', current: 'shown version', reason: 'on shown version, a retired version; 25H2 is current' }],
    ['draft', `${WINDOWS}_6`, { status: 'current', current: 'shown version', note: 'a preview version' }],
    ['invalid', `${WINDOWS}_10`, { status: 'unchecked', current: 'shown version', reason: `its template ${WINDOWS}_10 is in the state "invalid"; 25H2 is current` }],
    [
      'a state Graph may add',
      `${WINDOWS}_11`,
      { status: 'unchecked', current: 'shown version', reason: `its template ${WINDOWS}_11 is in the state "somethingNew"; 25H2 is current` },
    ],
    [
      'not listed',
      `${WINDOWS}_9`,
      { status: 'unchecked', current: 'shown version', reason: `its template ${WINDOWS}_9 is not among the baseline templates Graph returned; 25H2 is current` },
    ],
  ])('a template %s gives its verdict', (_state, templateId, expected) => {
    expect(verdict(templateId)).toEqual(expected);
  });

  it('the numeric trap: 23H2 is _1 and November 2021 _3, and both are outdated; Defender 24H1 (_1) is current beside Version 6 (_3)', () => {
    const report = deriveSecurityPosture(
      records([
        baselinePolicy(`${WINDOWS}_1`, '23H2', { id: 'a1b2c3d4-0000-4000-8000-000000000001' }),
        baselinePolicy(`${WINDOWS}_3`, 'November 2021', { id: 'a1b2c3d4-0000-4000-8000-000000000003' }),
        baselinePolicy(`${DEFENDER}_1`, '24H1', { id: 'a1b2c3d4-0000-4000-8000-000000000011' }),
        baselinePolicy(`${DEFENDER}_3`, 'Version 6', { id: 'a1b2c3d4-0000-4000-8000-000000000013' }),
      ]),
      context,
    );
    expect(report.findings.map((finding) => [finding.subjectId, finding.detail])).toEqual([
      ['a1b2c3d4-0000-4000-8000-000000000001', 'Baseline on 23H2, a superseded version; 25H2 is current.'],
      ['a1b2c3d4-0000-4000-8000-000000000003', 'Baseline on November 2021, a superseded version; 25H2 is current.'],
      ['a1b2c3d4-0000-4000-8000-000000000013', 'Baseline on Version 6, a superseded version; 24H1 is current.'],
    ]);
    expect(uncheckedKinds(report)).toEqual([]);
  });

  it('a failed template read is "could not check", never current, and keeps earlier outdated findings open', () => {
    expect(verdict(`${WINDOWS}_5`, FAILED)).toEqual({ status: 'unchecked', current: 'shown version', reason: FAILED.reason });
    const report = deriveSecurityPosture(records([baselinePolicy(`${WINDOWS}_4`, '24H2')], { policyTemplates: FAILED }), context);
    expect(report.findings).toEqual([]);
    expect(report.rows[0]?.status).toBe(`Could not check: ${FAILED.reason}`);
    expect(uncheckedKinds(report)).toEqual(['baseline-outdated']);
  });

  it('a STIG audit baseline (technologies extensibility) is not scanned for ASR or firewall settings, and is listed as audit-only', () => {
    const stig = baselinePolicy(`${WINDOWS}_5`, '25H2', {
      technologies: 'extensibility' as Beta.DeviceManagementConfigurationTechnologies,
      settings: [firewallOff],
      settingCount: 1,
    });
    const report = deriveSecurityPosture(records([stig]), context);
    expect(report.findings).toEqual([]);
    expect(report.rows.map((row) => [row.area, row.status])).toEqual([['Security baseline', 'Current (an audit-only baseline: it configures nothing)']]);
  });
});

describe('intent-era baselines and the settings catalog family', () => {
  const templates: Template[] = [
    {
      id: 'win-2021',
      displayName: 'MDM Security Baseline for Windows 10 and later for November 2021',
      templateType: 'securityBaseline',
      templateSubtype: 'none',
      platformType: 'windows10AndLater',
      versionInfo: 'November 2021',
      publishedDateTime: '2021-11-15T00:00:00Z',
      isDeprecated: false,
    },
    {
      id: 'edge-2020',
      displayName: 'Microsoft Edge baseline',
      templateType: 'microsoftEdgeSecurityBaseline',
      templateSubtype: 'none',
      platformType: 'windows10AndLater',
      versionInfo: 'September 2020',
      publishedDateTime: '2020-09-15T00:00:00Z',
      isDeprecated: false,
    },
    {
      id: 'atp-5',
      displayName: 'Microsoft Defender for Endpoint baseline',
      templateType: 'advancedThreatProtectionSecurityBaseline',
      templateSubtype: 'none',
      platformType: 'windows10AndLater',
      versionInfo: 'Version 5',
      publishedDateTime: '2020-09-01T00:00:00Z',
      isDeprecated: true,
    },
  ];
  const intent = (templateId: string) => ({ id: 'i', displayName: 'Baseline', templateId, isMigratingToConfigurationPolicy: false, isAssigned: true });

  it("is outdated when its product's settings catalog baseline has an active version, naming it", () => {
    expect(intentBaselineVerdict(intent('win-2021'), templates, LIVE)).toMatchObject({
      status: 'outdated',
      reason: 'on November 2021; newer versions exist only in the settings catalog: Security Baseline for Windows 10 and later 25H2',
    });
  });

  it("cannot check that step when the product's family is not listed, or the template read failed; it is never current then", () => {
    expect(intentBaselineVerdict(intent('edge-2020'), templates, LIVE)).toMatchObject({
      status: 'unchecked',
      reason: 'whether a newer version exists in the settings catalog is unknown: Graph returned no template of its settings catalog baseline',
    });
    expect(intentBaselineVerdict(intent('win-2021'), templates, FAILED)).toMatchObject({
      status: 'unchecked',
      reason: `whether a newer version exists in the settings catalog is unknown: ${FAILED.reason}`,
    });
  });

  it('a deprecated template is outdated whatever the settings catalog read did', () => {
    expect(intentBaselineVerdict(intent('atp-5'), templates, FAILED)).toMatchObject({ status: 'outdated', reason: 'on Version 5, a deprecated version' });
  });
});

describe('completeness of settings', () => {
  const audit35 = [...Array.from({ length: 34 }, (_, index) => filler(index)), asrSetting('audit')];

  it('settings held equal to settingCount: complete; settingCount absent with no nextLink: complete, with a note', () => {
    expect(settingsCompleteness(projectPolicy(graphPolicy()))).toEqual({ complete: true, note: null });
    const { settingCount: _count, ...uncounted } = graphPolicy();
    expect(settingsCompleteness(projectPolicy(uncounted))).toEqual({ complete: true, note: 'setting count not reported' });
    const report = deriveSecurityPosture(records([uncounted]), context);
    expect(report.rows[0]?.status).toBe('Audit only: not enforced (setting count not reported)');
  });

  it('a short read is not checked: no clean pass and no finding, "N of M settings read", and the ASR and firewall kinds stay open for it', () => {
    const short = graphPolicy({ name: 'Short', settings: [firewallOff, filler(1)], settingCount: 40 });
    const report = deriveSecurityPosture(records([short]), context);
    expect(report.rows.find((row) => row.area === 'Policy settings')).toMatchObject({ value: '2 of 40', status: 'Could not check: 2 of 40 settings read', statusTone: 'neutral' });
    expect(report.uncheckedSubjects).toEqual([
      { kind: 'asr-rule-audit', subjectId: short.id },
      { kind: 'firewall-profile-off', subjectId: short.id },
    ]);
    // Judged on all its settings or not at all: what was read is shown, not judged.
    expect(report.findings).toEqual([]);
    expect(report.rows.find((row) => row.area === 'Firewall')).toMatchObject({
      status: 'Firewall switched off by policy (not judged: not all its settings could be read)',
      statusTone: 'neutral',
    });
  });

  it('an incomplete policy that is not deployed leaves nothing unchecked', () => {
    const report = deriveSecurityPosture(records([graphPolicy({ settings: [filler(1)], settingCount: 40, assignments: [], isAssigned: false })]), context);
    expect(uncheckedKinds(report)).toEqual([]);
    expect(report.rows).toEqual([]);
  });

  /**
   * A reader that serves the policy list as Graph does with `$select` (no settings), then each
   * policy's `/settings` as `$batch` answers it, a first page of 25 with a nextLink, and the rest
   * through `pages(…, { after })`; or a failure.
   */
  function reader(
    policies: GraphPolicy[],
    settings: (path: string) => unknown[] | GraphError,
    policyTemplates: PolicyTemplate[] | GraphError = [],
    continuation?: GraphError,
  ): GraphReader & { paths: string[] } {
    const paths: string[] = [];
    const listed = policies.map(({ settings: _settings, 'settings@odata.nextLink': _link, ...policy }) => policy);
    async function* pages<T>(path: string, options?: PagesOptions): AsyncGenerator<GraphPage<T>> {
      paths.push(`${path}${options?.query ? `?${new URLSearchParams(options.query).toString()}` : ''}${options?.after ? ` after ${options.after}` : ''}`);
      if (path === '/beta/deviceManagement/configurationPolicies') return yield { items: listed as T[], index: 0 };
      if (path === '/beta/deviceManagement/configurationPolicyTemplates') {
        if (policyTemplates instanceof GraphError) throw policyTemplates;
        return yield { items: policyTemplates as T[], index: 0 };
      }
      if (path.endsWith('/settings') && options?.after) {
        if (continuation) throw continuation;
        const items = settings(path) as unknown[];
        for (let index = 1; index * 25 < items.length; index += 1) yield { items: items.slice(index * 25, index * 25 + 25) as T[], index: index - 1 };
        return;
      }
      return yield { items: [], index: 0 };
    }
    return {
      paths,
      betaCoverage: false,
      coveragePath: (path) => path,
      get: () => Promise.reject(new Error('not read')),
      pages,
      getAll: () => Promise.reject(new Error('not read')),
      async batchGet(requests: readonly BatchSubRequest[], options?: BatchOptions): Promise<Map<string, BatchOutcome>> {
        paths.push(`POST /${options?.version ?? 'v1.0'}/$batch ${requests.map((request) => request.url).join(' ')}`);
        const outcomes = new Map<string, BatchOutcome>();
        for (const request of requests) {
          const items = settings(`/beta${request.url.split('?')[0]}`);
          if (items instanceof GraphError) {
            outcomes.set(request.id, { ok: false, error: items });
            continue;
          }
          // Graph's nextLink carries the request's query on.
          const more = items.length > 25 ? { '@odata.nextLink': `https://graph.microsoft.com/beta${request.url}&$skiptoken=25` } : {};
          outcomes.set(request.id, { ok: true, status: 200, body: { ...more, value: items.slice(0, 25) } });
        }
        return outcomes;
      },
    };
  }
  const failure = (status: number, path = '/beta/deviceManagement/configurationPolicies/x/settings') =>
    new GraphError({ kind: 'http', status, code: 'InternalServerError', message: 'failed', method: 'GET', path, attempts: 1 });
  const SETTINGS = `/deviceManagement/configurationPolicies/${POLICY_ID}/settings`;

  it('reads the list with $select and assignments, then the settings through /beta/$batch to their last page, finding the rule in audit past the first 25', async () => {
    const graph = reader([graphPolicy({ settingCount: 35 })], () => audit35);
    const loaded = await loadSecurityPosture({ graph });
    expect(graph.paths.filter((path) => !path.includes('Templates') && !path.includes('intents') && !path.includes('templates'))).toEqual([
      `/beta/deviceManagement/configurationPolicies?${new URLSearchParams(POLICY_LIST_QUERY).toString()}`,
      `POST /beta/$batch ${SETTINGS}?$expand=settingDefinitions`,
      `/beta${SETTINGS} after https://graph.microsoft.com/beta${SETTINGS}?$expand=settingDefinitions&$skiptoken=25`,
      // Then, once, the audit log for the findings' stories (docs/finding-rules.md, "A finding's last
      // change"): its window (here a year, as the policy's last change is not known) in slices.
      ...Array.from({ length: MAX_AUDIT_SLICES }, () => expect.stringMatching(/^\/v1\.0\/deviceManagement\/auditEvents\?%24filter=activityDateTime\+ge\+/)),
    ]);
    expect(loaded.policies[0]).toMatchObject({ settingsRead: 35, settingCount: 35, settingsPaged: true, settingsError: null });
    const report = deriveSecurityPosture(loaded, context);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['asr-rule-audit']);
    expect(uncheckedKinds(report)).toEqual([]);
  });

  it('a settings read that fails leaves the policy not checked, naming the failure and what was read', async () => {
    const graph = reader([graphPolicy({ settingCount: 35 })], (path) => failure(500, path));
    const report = deriveSecurityPosture(await loadSecurityPosture({ graph }), context);
    expect(report.rows.find((row) => row.area === 'Policy settings')?.status).toBe('Could not check: reading its settings failed: Graph answered 500; 0 of 35 settings read');
    expect(report.findings).toEqual([]);
    expect(uncheckedKinds(report)).toEqual(['asr-rule-audit', 'firewall-profile-off']);

    const cutShort = reader([graphPolicy({ settingCount: 35 })], () => audit35, [], failure(503));
    const shortReport = deriveSecurityPosture(await loadSecurityPosture({ graph: cutShort }), context);
    expect(shortReport.rows.find((row) => row.area === 'Policy settings')?.status).toBe('Could not check: reading its settings failed: Graph answered 503; 25 of 35 settings read');
    expect(shortReport.findings).toEqual([]);
  });

  it('a settings answer without a value array is a malformed read, not an empty policy', async () => {
    const graph = reader([graphPolicy({ settingCount: 35 })], () => audit35);
    graph.batchGet = async (requests) => new Map(requests.map((request) => [request.id, { ok: true, status: 200, body: { settings: [] } }]));
    const report = deriveSecurityPosture(await loadSecurityPosture({ graph }), context);
    expect(report.rows.find((row) => row.area === 'Policy settings')?.status).toBe(
      'Could not check: reading its settings failed: Graph sent a malformed answer; 0 of 35 settings read',
    );
    expect(report.findings).toEqual([]);
    expect(uncheckedKinds(report)).toEqual(['asr-rule-audit', 'firewall-profile-off']);
  });

  it('a read that never matches the count (fewer or more) is not checked', async () => {
    for (const served of [audit35.slice(0, 30), [...audit35, filler(99)]]) {
      const graph = reader([graphPolicy({ settingCount: 35 })], () => served);
      const report = deriveSecurityPosture(await loadSecurityPosture({ graph }), context);
      expect(report.rows.find((row) => row.area === 'Policy settings')?.status).toBe(`Could not check: ${served.length} of 35 settings read`);
      expect(uncheckedKinds(report)).toEqual(['asr-rule-audit', 'firewall-profile-off']);
    }
  });

  it('without a settingCount, the settings are read and a read to the last page is accepted', async () => {
    const { settingCount: _count, ...uncounted } = graphPolicy();
    const graph = reader([uncounted], () => audit35);
    const report = deriveSecurityPosture(await loadSecurityPosture({ graph }), context);
    expect(report.findings.map((finding) => finding.kind)).toEqual(['asr-rule-audit']);
    expect(report.rows[0]?.status).toBe('Audit only: not enforced (setting count not reported)');
  });

  it('reads no settings the rules do not need: none of a policy with a count of 0, nor of an audit-only baseline', async () => {
    const empty = graphPolicy({ settings: [], settingCount: 0 });
    const stig = graphPolicy({ id: '1f8fad5b-d9cb-469f-a165-70867728950e', technologies: 'mdm,extensibility' as Beta.DeviceManagementConfigurationTechnologies, settingCount: 12 });
    const graph = reader([empty, stig], () => {
      throw new Error('not expected');
    });
    await loadSecurityPosture({ graph });
    expect(graph.paths.some((path) => path.includes('$batch') || path.endsWith('/settings'))).toBe(false);
  });

  describe('settings kept between loads', () => {
    const kept = () => {
      const texts = new Map<string, string>();
      return { texts, memory: { read: async (name: string) => texts.get(name) ?? null, write: async (name: string, text: string) => void texts.set(name, text) } };
    };
    const at = (iso: string) => () => new Date(iso);
    const changed = '2026-11-21T10:00:00Z';
    const policy = (lastModifiedDateTime: string) => graphPolicy({ settingCount: 35, lastModifiedDateTime });

    it('a policy the list shows unchanged is not read again, and is judged as before', async () => {
      const { memory } = kept();
      await loadSecurityPosture({ graph: reader([policy(changed)], () => audit35), memory, now: at('2026-11-22T09:00:00Z') });
      const again = reader([policy(changed)], () => {
        throw new Error('not expected');
      });
      const loaded = await loadSecurityPosture({ graph: again, memory, now: at('2026-11-22T12:00:00Z') });
      expect(again.paths.some((path) => path.includes('$batch') || path.endsWith('/settings'))).toBe(false);
      expect(deriveSecurityPosture(loaded, context).findings.map((finding) => finding.kind)).toEqual(['asr-rule-audit']);
    });

    it('a policy changed since, a count that differs, or a read older than a day is read again', async () => {
      for (const [next, later] of [
        [policy('2026-11-22T10:30:00Z'), '2026-11-22T12:00:00Z'],
        [graphPolicy({ settingCount: 36, lastModifiedDateTime: changed }), '2026-11-22T12:00:00Z'],
        [policy(changed), '2026-11-23T09:00:01Z'],
      ] as const) {
        const { memory } = kept();
        await loadSecurityPosture({ graph: reader([policy(changed)], () => audit35), memory, now: at('2026-11-22T09:00:00Z') });
        const again = reader([next], () => audit35);
        await loadSecurityPosture({ graph: again, memory, now: at(later) });
        expect(again.paths.filter((path) => path.includes('$batch'))).toEqual([`POST /beta/$batch ${SETTINGS}?$expand=settingDefinitions`]);
      }
    });

    it('keeps only whole reads, only the choices the rules read, and forgets a policy no longer listed', async () => {
      const { texts, memory } = kept();
      const other = { ...policy(changed), id: '2f8fad5b-d9cb-469f-a165-70867728950e', name: 'Other' } as GraphPolicy;
      await loadSecurityPosture({
        graph: reader([policy(changed), other], (path) => (path.includes(POLICY_ID) ? audit35 : failure(500, path))),
        memory,
        now: at('2026-11-22T09:00:00Z'),
      });
      const document = JSON.parse(texts.get(SETTINGS_MEMORY)!) as { policies: Record<string, { choices: unknown[]; settingsRead: number }> };
      expect(Object.keys(document.policies)).toEqual([POLICY_ID]);
      expect(document.policies[POLICY_ID]).toMatchObject({ settingsRead: 35, choices: [{ settingDefinitionId: AUDIT_RULE, value: `${AUDIT_RULE}_audit` }] });
      expect(texts.get(SETTINGS_MEMORY)).not.toContain('setting34');

      await loadSecurityPosture({ graph: reader([other], () => audit35), memory, now: at('2026-11-22T10:00:00Z') });
      expect(Object.keys((JSON.parse(texts.get(SETTINGS_MEMORY)!) as { policies: object }).policies)).toEqual([other.id]);
    });

    it('a torn or foreign memory text reads every policy again', async () => {
      for (const text of ['{"version":1,"policies":', '{"version":99,"policies":{}}', 'null']) {
        const memory = { read: async () => text, write: async () => undefined };
        const graph = reader([policy(changed)], () => audit35);
        await loadSecurityPosture({ graph, memory, now: at('2026-11-22T09:00:00Z') });
        expect(graph.paths.filter((path) => path.includes('$batch'))).toHaveLength(1);
      }
    });
  });

  it('asks for the baseline templates with a $filter, and on a 400 reads them all and keeps the baselines itself', async () => {
    const other = { ...template(WINDOWS, 2, 'not a baseline', 'active'), id: 'x_1', templateFamily: 'endpointSecurityFirewall' as const };
    let calls = 0;
    const graph = reader([], () => []);
    const pages = graph.pages.bind(graph);
    graph.pages = function <T>(path: string, options?: RequestOptions) {
      if (path !== '/beta/deviceManagement/configurationPolicyTemplates') return pages<T>(path, options);
      calls += 1;
      graph.paths.push(`${path}?${new URLSearchParams(options?.query ?? {}).toString()}`);
      return (async function* () {
        if (options?.query?.$filter) throw failure(400, path);
        yield { items: [...LIVE.value, other] as T[], index: 0 };
      })();
    };
    const loaded = await loadSecurityPosture({ graph });
    expect(calls).toBe(2);
    expect(graph.paths.filter((path) => path.startsWith('/beta/deviceManagement/configurationPolicyTemplates'))).toEqual([
      '/beta/deviceManagement/configurationPolicyTemplates?%24filter=templateFamily+eq+%27baseline%27',
      '/beta/deviceManagement/configurationPolicyTemplates?',
    ]);
    expect(loaded.policyTemplates).toEqual({ ok: true, value: LIVE.value });
  });

  it('a template read that fails otherwise leaves the baselines unchecked, not the report failed', async () => {
    const graph = reader([], () => [], failure(503, '/beta/deviceManagement/configurationPolicyTemplates'));
    const loaded = await loadSecurityPosture({ graph });
    expect(loaded.policyTemplates).toEqual({ ok: false, reason: 'the baseline templates could not be read: Graph answered 503' });
  });
});
