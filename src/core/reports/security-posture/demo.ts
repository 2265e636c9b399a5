import { plantConfigurationPolicy } from '../demo-records.js';
import type { SettingInstance, Target } from '../demo-records.js';
import type { DemoRecord, DemoStep, DemoTenantBuilder } from '../report-demo.js';
import type { PostureFindingKind } from './finding-kinds.js';
import * as records from './demo-records.js';
import { assignments, daysAgo, hoursAgo } from '../demo-records.js';
import { plantAuditEvent } from '../../audit-story/demo-records.js';
import type { AuditActorSpec } from '../../audit-story/demo-records.js';

type Tenant = DemoTenantBuilder<PostureFindingKind>;
type PolicyOptions = { settingCount?: number; policySetId?: string };

function asrPolicy(
  tenant: Tenant,
  name: string,
  rules: Parameters<typeof records.asrRulesSetting>[0],
  targets: Target[],
  options: PolicyOptions & { before?: SettingInstance[] } = {},
): string {
  const { before = [], ...rest } = options;
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'endpointSecurityAttackSurfaceReduction',
    templateId: 'e8c053d6-9f95-42b1-a7f1-ebfd71c67a4b_1',
    templateDisplayName: 'Attack Surface Reduction Rules',
    technologies: 'mdm,microsoftSense',
    settings: [...before, records.asrRulesSetting(rules)],
    targets,
    ...rest,
  });
}

function firewallPolicy(
  tenant: Tenant,
  name: string,
  profiles: Partial<Record<'domain' | 'private' | 'public', 'true' | 'false'>>,
  targets: Target[],
  options: PolicyOptions = {},
): string {
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'endpointSecurityFirewall',
    templateId: '6078910e-d808-4a9f-a51d-1b8a7bacb7c0_1',
    templateDisplayName: 'Windows Firewall',
    settings: Object.entries(profiles).map(([profile, value]) => records.choiceSetting(`vendor_msft_firewall_mdmstore_${profile}profile_enablefirewall`, value)),
    targets,
    ...options,
  });
}

/**
 * The baseline templates Graph lists with `templateFamily eq 'baseline'`, as a live read of a
 * commercial tenant showed them in 2026 (Lewis-Barry/IntuneSettingsCatalogViewer,
 * public/baselines/index.json; the ids agree with deploymenttheory/terraform-provider-microsoft365).
 * The version in the id is not chronological: Windows "November 2021" is `_3` and "23H2" `_1`;
 * Defender "Version 6" is `_3` and the newer "24H1" `_1`.
 */
const WINDOWS = { baseId: '66df8dce-0166-4b82-92f7-1f74e3ca17a3', displayName: 'Security Baseline for Windows 10 and later' };
const DEFENDER = { baseId: '49b8320f-e179-472e-8e2c-2fde00289ca2', displayName: 'Microsoft Defender for Endpoint Security Baseline' };
const EDGE = { baseId: 'c66347b7-8325-4954-a235-3bf2233dfbfd', displayName: 'Security Baseline for Microsoft Edge' };
const WINDOWS_365 = { baseId: 'b00e1a0f-19dd-41de-8243-e6733ca7b4ae', displayName: 'Windows 365 Security Baseline' };
const M365_APPS = { baseId: '90316f12-246d-44c6-a767-f87692e86083', displayName: 'Microsoft 365 Apps for Enterprise Security Baseline' };
/**
 * A STIG audit baseline: `technologies` `extensibility`, audit only ("It doesn't configure or
 * enforce settings", learn.microsoft.com/intune/device-security/security-baselines/stig-audit-baseline).
 * Its id is the demo's own: the real ones exist in GCC High only.
 */
const STIG = { baseId: '5a3c9e71-0d2b-4f86-9c1e-7b4d2a6f8e05', displayName: 'STIG Audit Baseline for Windows 11 (demo)' };

const BASELINE_TEMPLATES: ReadonlyArray<Parameters<typeof records.configurationPolicyTemplate>[0]> = [
  { ...WINDOWS, version: 5, displayVersion: '25H2', lifecycleState: 'active' },
  { ...WINDOWS, version: 4, displayVersion: '24H2', lifecycleState: 'superseded' },
  { ...WINDOWS, version: 1, displayVersion: '23H2', lifecycleState: 'superseded' },
  { ...WINDOWS, version: 3, displayVersion: 'November 2021', lifecycleState: 'superseded' },
  { ...DEFENDER, version: 1, displayVersion: '24H1', lifecycleState: 'active' },
  { ...DEFENDER, version: 3, displayVersion: 'Version 6', lifecycleState: 'superseded' },
  { ...EDGE, version: 4, displayVersion: 'Version 139', lifecycleState: 'active' },
  { ...EDGE, version: 3, displayVersion: 'Version 128', lifecycleState: 'superseded' },
  { ...EDGE, version: 2, displayVersion: 'Version 117', lifecycleState: 'superseded' },
  { ...EDGE, version: 1, displayVersion: 'Version 112', lifecycleState: 'superseded' },
  { ...WINDOWS_365, version: 1, displayVersion: '24H1', lifecycleState: 'active' },
  { ...WINDOWS_365, version: 3, displayVersion: 'November 2021', lifecycleState: 'superseded' },
  { ...M365_APPS, version: 3, displayVersion: 'Version 2512', lifecycleState: 'active' },
  { ...M365_APPS, version: 2, displayVersion: 'Version 2306', lifecycleState: 'superseded' },
  { ...M365_APPS, version: 1, displayVersion: 'Version 2206', lifecycleState: 'superseded' },
  { ...STIG, version: 1, displayVersion: 'Version 1', lifecycleState: 'active', technologies: 'extensibility' },
];

/** The settings catalog's baseline templates as Graph lists them (ids, versions, lifecycle states): every simulated tenant has them. */
export function baselinePolicyTemplates(): DemoRecord[] {
  return BASELINE_TEMPLATES.map(records.configurationPolicyTemplate);
}

function baseline(
  tenant: Tenant,
  name: string,
  family: { baseId: string; displayName: string },
  version: number,
  displayVersion: string,
  targets: Target[],
  technologies?: string,
): string {
  return plantConfigurationPolicy(tenant, {
    name,
    templateFamily: 'baseline',
    templateId: `${family.baseId}_${version}`,
    templateDisplayName: family.displayName,
    templateDisplayVersion: displayVersion,
    ...(technologies ? { technologies } : {}),
    settings: [],
    targets,
  });
}

function template(tenant: Tenant, value: Omit<Parameters<typeof records.deviceManagementTemplate>[0], 'id'> & { id?: string }): string {
  const item = records.deviceManagementTemplate({ ...value, id: value.id ?? tenant.guid() });
  tenant.add('templates', item);
  return item.id;
}

function intent(tenant: Tenant, displayName: string, templateId: string, isAssigned = true): string {
  const item = records.deviceManagementIntent({ id: tenant.guid(), displayName, templateId, now: tenant.now, isAssigned });
  tenant.add('intents', item);
  return item.id;
}

/** Real Defender policy CSP settings, as top-level settings a large policy holds besides its ASR rules. */
const DEFENDER_SETTINGS = [
  'allowarchivescanning',
  'allowbehaviormonitoring',
  'allowcloudprotection',
  'allowemailscanning',
  'allowfullscanonmappednetworkdrives',
  'allowfullscanremovabledrivescanning',
  'allowintrusionpreventionsystem',
  'allowioavprotection',
  'allowonaccessprotection',
  'allowrealtimemonitoring',
  'allowscanningnetworkfiles',
  'allowscriptscanning',
  'allowuseruiaccess',
  'avgcpuloadfactor',
  'checkforsignaturesbeforerunningscan',
  'cloudblocklevel',
  'cloudextendedtimeout',
  'daystoretaincleanedmalware',
  'disablecatchupfullscan',
  'disablecatchupquickscan',
  'enablelowcpupriority',
  'enablenetworkprotection',
  'puaprotection',
  'realtimescandirection',
  'scanparameter',
  'schedulequickscantime',
  'schedulescanday',
  'schedulescantime',
  'signatureupdateinterval',
  'submitsamplesconsent',
  'engineupdateschannel',
  'platformupdateschannel',
  'signatureupdateschannel',
  'meteredconnectionupdates',
  'disablelocaladminmerge',
  'allowdatagramprocessingonwinserver',
  'disablednsovertcpparsing',
  'disablehttpparsing',
  'disablesshparsing',
];
const defenderSettings = (count: number) => DEFENDER_SETTINGS.slice(0, count).map((name) => records.choiceSetting(`device_vendor_msft_policy_config_defender_${name}`, '1'));

/**
 * Report 3 in the demo tenant: an ASR rule in audit, a firewall profile off, and baselines behind
 * their newest version (settings catalog and intent-era alike), beside look-alikes that are not
 * findings (a rule in warn, a profile left unconfigured, baselines on the newest version, policies
 * that reach no one, settings that could not be read in full).
 */
export const securityPostureDemo: readonly DemoStep<PostureFindingKind>[] = [
  {
    step: 3,
    plant(tenant) {
      const { allStaff, pilot, finance } = tenant.groups;
      tenant.declare(
        'asr-rule-audit',
        asrPolicy(
          tenant,
          'ASR - Standard protection',
          {
            blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem: 'block',
            blockpersistencethroughwmieventsubscription: 'audit',
            blockabuseofexploitedvulnerablesigneddrivers: 'audit',
          },
          [{ kind: 'include', groupId: allStaff }],
        ),
      );
      // Warn is a block with a user bypass: enforcing, so shown but not a finding.
      asrPolicy(
        tenant,
        'ASR - Office rules',
        {
          blockallofficeapplicationsfromcreatingchildprocesses: 'block',
          blockofficeapplicationsfromcreatingexecutablecontent: 'block',
          blockwin32apicallsfromofficemacros: 'warn',
        },
        [{ kind: 'include', groupId: pilot }],
      );
      tenant.declare('firewall-profile-off', firewallPolicy(tenant, 'Firewall - Corporate', { domain: 'true', private: 'true', public: 'false' }, [{ kind: 'allDevices' }]));
      // Only the domain profile is configured; the others are left to the device, which is not "off".
      firewallPolicy(tenant, 'Firewall - Lab', { domain: 'true' }, [{ kind: 'include', groupId: pilot }]);
      // 23H2 is `_1`, the 24H2 below `_4`: Graph's lifecycle states, not the numbers, say which is outdated.
      tenant.declare('baseline-outdated', baseline(tenant, 'Security baseline for Windows (23H2)', WINDOWS, 1, '23H2', [{ kind: 'include', groupId: finance }]));
      tenant.declare('baseline-outdated', baseline(tenant, 'Security baseline for Windows (24H2)', WINDOWS, 4, '24H2', [{ kind: 'include', groupId: allStaff }]));
      tenant.add('configurationPolicyTemplates', ...baselinePolicyTemplates());
    },
  },
  {
    step: 5,
    plant(tenant) {
      // Legacy (intent-era) baselines and the templates they were made from; the real template ids where they are known.
      const mdm2020 = template(tenant, {
        displayName: 'MDM Security Baseline for Windows 10 and later for August 2020',
        templateType: 'securityBaseline',
        versionInfo: 'August 2020',
        publishedDateTime: '2020-08-17T00:00:00Z',
        isDeprecated: false,
      });
      const mdm2021 = template(tenant, {
        id: '034ccd46-190c-4afc-adf1-ad7cc11262eb',
        displayName: 'MDM Security Baseline for Windows 10 and later for November 2021',
        templateType: 'securityBaseline',
        versionInfo: 'November 2021',
        publishedDateTime: '2021-11-15T00:00:00Z',
        isDeprecated: false,
      });
      const defenderV5 = template(tenant, {
        displayName: 'Microsoft Defender for Endpoint baseline',
        templateType: 'advancedThreatProtectionSecurityBaseline',
        versionInfo: 'Version 5',
        publishedDateTime: '2020-09-01T00:00:00Z',
        isDeprecated: true,
      });
      template(tenant, {
        id: '2209e067-9c8c-462e-9981-5a8c79165dcc',
        displayName: 'Microsoft Defender for Endpoint baseline',
        templateType: 'advancedThreatProtectionSecurityBaseline',
        versionInfo: 'Version 6',
        publishedDateTime: '2021-12-01T00:00:00Z',
        isDeprecated: false,
      });
      const edge = template(tenant, {
        id: 'a8d6fa0e-1e66-455b-bb51-8ce0dde1559e',
        displayName: 'Microsoft Edge baseline',
        templateType: 'microsoftEdgeSecurityBaseline',
        versionInfo: 'September 2020',
        publishedDateTime: '2020-09-15T00:00:00Z',
        isDeprecated: false,
      });
      tenant.declare('baseline-outdated', intent(tenant, 'Windows baseline (2020)', mdm2020));
      // The newest intent-era versions are outdated too: their products' newer versions exist only in the settings catalog.
      tenant.declare('baseline-outdated', intent(tenant, 'Windows baseline (2021)', mdm2021));
      tenant.declare('baseline-outdated', intent(tenant, 'Defender for Endpoint baseline (v5)', defenderV5));
      tenant.declare('baseline-outdated', intent(tenant, 'Edge baseline', edge));
    },
  },
  {
    step: 13,
    plant(tenant) {
      const { allStaff, pilot, finance, kioskExclusions } = tenant.groups;

      // ---- deployment: a policy assigned to no one enforces nothing -----------------------
      // Report 2 finds them: assigned to no one, or to exclusions alone.
      tenant.declareFor(
        'assignment-hygiene',
        'unassigned',
        asrPolicy(tenant, 'ASR - Draft rules (unassigned)', { blockexecutionofpotentiallyobfuscatedscripts: 'audit', blockrebootingmachineinsafemode: 'audit' }, []),
      );
      tenant.declareFor(
        'assignment-hygiene',
        'exclusions-only',
        firewallPolicy(tenant, 'Firewall - Kiosk exceptions (exclusions only)', { public: 'false' }, [{ kind: 'exclude', groupId: kioskExclusions }]),
      );
      // Assigned through a policy set: deployed all the same.
      tenant.declare(
        'firewall-profile-off',
        firewallPolicy(tenant, 'Firewall - Branch offices (policy set)', { domain: 'true', private: 'false' }, [{ kind: 'include', groupId: finance }], {
          policySetId: tenant.guid(),
        }),
      );

      // ---- settings catalog baselines, by their template's lifecycle state ------------------
      baseline(tenant, 'Security baseline for Windows (25H2)', WINDOWS, 5, '25H2', [{ kind: 'include', groupId: pilot }]);
      // "Update version" makes a copy without the assignments (configure-baselines): it deploys to no one.
      tenant.declareFor('assignment-hygiene', 'unassigned', baseline(tenant, 'Security baseline for Windows (24H2) - updated to 25H2', WINDOWS, 5, '25H2', []));
      tenant.declare('baseline-outdated', baseline(tenant, 'Security baseline for Windows (November 2021)', WINDOWS, 3, 'November 2021', [{ kind: 'include', groupId: pilot }]));
      baseline(tenant, 'Defender for Endpoint baseline (24H1)', DEFENDER, 1, '24H1', [{ kind: 'include', groupId: allStaff }]);
      tenant.declare('baseline-outdated', baseline(tenant, 'Defender for Endpoint baseline (Version 6)', DEFENDER, 3, 'Version 6', [{ kind: 'include', groupId: finance }]));
      baseline(tenant, 'Edge baseline (Version 139)', EDGE, 4, 'Version 139', [{ kind: 'allDevices' }]);
      // A template Graph does not list: could not check, never current.
      baseline(tenant, 'Security baseline for Windows (unknown version)', WINDOWS, 9, 'Version 9', [{ kind: 'include', groupId: pilot }]);
      baseline(tenant, 'STIG audit baseline', STIG, 1, 'Version 1', [{ kind: 'include', groupId: pilot }], 'extensibility');

      // ---- intent-era baselines ------------------------------------------------------------
      const cloudPc = template(tenant, {
        id: 'cef15778-c3b9-4d53-a00a-042929f0aad0',
        displayName: 'Windows 365 Security Baseline',
        templateType: 'cloudPC',
        versionInfo: 'November 2021',
        publishedDateTime: '2021-11-15T00:00:00Z',
        isDeprecated: false,
      });
      tenant.declare('baseline-outdated', intent(tenant, 'Windows 365 baseline', cloudPc));
      tenant.declare('baseline-outdated', intent(tenant, 'Defender for Endpoint baseline (v6)', '2209e067-9c8c-462e-9981-5a8c79165dcc'));
      intent(tenant, 'Windows baseline (2021, unassigned)', '034ccd46-190c-4afc-adf1-ad7cc11262eb', false);
      // Its template is no longer listed: could not check. Left from a pilot, it still goes to the pilot
      // group only (report 2's demo gives every other assigned intent All devices), so the device the
      // README asks about is not one whose platform for it is unknown.
      const orphan = intent(tenant, 'Windows baseline (2019)', tenant.guid());
      const orphanRecord = tenant.records('intents').find((record) => record.id === orphan) as Record<string, unknown>;
      orphanRecord.assignments = assignments(orphan, [{ kind: 'include', groupId: pilot }]);

      // ---- completeness: a policy is judged on all its settings or not at all --------------
      // 40 settings with the ASR rules as the 40th: past the 25 an expansion carries, so the rule in
      // audit is read only by following the policy's /settings to its last page.
      tenant.declare(
        'asr-rule-audit',
        asrPolicy(
          tenant,
          'Defender - Full configuration',
          { blockuseofcopiedorimpersonatedsystemtools: 'audit', blockwebshellcreationforservers: 'block' },
          [{ kind: 'include', groupId: allStaff }],
          {
            before: defenderSettings(39),
          },
        ),
      );
      // Read whole from /settings here; a test makes its /settings fail (could not check).
      asrPolicy(tenant, 'Defender - Servers', { blockprocesscreationsfrompsexecandwmicommands: 'block' }, [{ kind: 'include', groupId: pilot }], { before: defenderSettings(29) });
      // Graph counts 3 settings and never returns more than 2: could not check, never a clean pass.
      firewallPolicy(tenant, 'Firewall - Datacenter', { domain: 'true', private: 'true' }, [{ kind: 'include', groupId: pilot }], { settingCount: 3 });
    },
  },
  {
    step: 15,
    plant(tenant) {
      plantStories(tenant);
    },
  },
];

/**
 * What the demo's audit log must tell of report 3's findings, by the finding's object's name: its
 * last successful change's actor and activity, or `null` where the finding has no story (only a
 * failed attempt, or a change older than the load's window). Tests compare each finding's
 * `lastChange` with this.
 */
export const SECURITY_POSTURE_STORIES: ReadonlyArray<{ subjectName: string; lastChange: { by: string; activity: string } | null }> = [
  { subjectName: 'Firewall - Branch offices (policy set)', lastChange: { by: 'dana.lopez@contoso-demo.example', activity: 'Patch DeviceManagementConfigurationPolicy' } },
  { subjectName: 'Firewall - Corporate', lastChange: { by: 'Contoso Configuration Sync', activity: 'Patch DeviceManagementConfigurationPolicy' } },
  { subjectName: 'ASR - Standard protection', lastChange: { by: 'lee.gu@contoso-demo.example', activity: 'Patch DeviceManagementConfigurationPolicy' } },
  { subjectName: 'Windows baseline (2020)', lastChange: { by: 'alex.wilber@contoso-demo.example', activity: 'Patch DeviceManagementIntent' } },
  { subjectName: 'Defender for Endpoint baseline (v5)', lastChange: null },
  { subjectName: 'Edge baseline', lastChange: null },
];

const ALEX: AuditActorSpec = { user: 'alex.wilber@contoso-demo.example' };
const DANA: AuditActorSpec = { user: 'dana.lopez@contoso-demo.example' };
const LEE: AuditActorSpec = { user: 'lee.gu@contoso-demo.example' };
const MEGAN: AuditActorSpec = { user: 'megan.bowen@contoso-demo.example' };
const SYNC_APP: AuditActorSpec = { app: 'Contoso Configuration Sync', appId: '7d3f5a41-2c8e-4b9a-9e61-0f4c2b8d5a17' };

/**
 * The stories of report 3's findings in Intune's audit log (docs/finding-rules.md, "A finding's
 * last change"): creations, changes by people and by an app, a failed attempt after the last
 * change, an id written in upper case, a change older than the load's window, and a look-alike
 * that is not a finding. Planted out of time order: the log promises none.
 */
function plantStories(tenant: Tenant): void {
  const { now } = tenant;
  const policy = (name: string) => {
    const found = tenant.records('configurationPolicies').find((record) => record.name === name);
    if (!found) throw new Error(`the demo has no policy "${name}"`);
    return { resourceId: found.id, resourceName: name, resourceType: 'DeviceManagementConfigurationPolicy' };
  };
  const intentNamed = (name: string) => {
    const found = tenant.records('intents').find((record) => record.displayName === name);
    if (!found) throw new Error(`the demo has no intent "${name}"`);
    return { resourceId: found.id, resourceName: name, resourceType: 'DeviceManagementIntent' };
  };
  const publicProfile = 'Settings[0].SettingInstance.ChoiceSettingValue.Value';

  const branch = policy('Firewall - Branch offices (policy set)');
  // A failed attempt after the last change: it changed nothing, so Dana's change stays the last.
  plantAuditEvent(tenant, { ...branch, operation: 'Patch', verb: 'Patch', at: hoursAgo(now, 30), actor: MEGAN, result: 'Failure' });
  plantAuditEvent(tenant, { ...branch, operation: 'Create', verb: 'Create', at: daysAgo(now, 40), actor: ALEX, result: 'Success' });
  plantAuditEvent(tenant, {
    ...branch,
    operation: 'Patch',
    verb: 'Patch',
    at: daysAgo(now, 12),
    actor: DANA,
    result: 'Success',
    properties: [
      {
        name: 'Settings[1].SettingInstance.ChoiceSettingValue.Value',
        oldValue: 'vendor_msft_firewall_mdmstore_privateprofile_enablefirewall_true',
        newValue: 'vendor_msft_firewall_mdmstore_privateprofile_enablefirewall_false',
      },
    ],
  });

  // Changed by an app acting on its own: named by the app.
  const corporate = policy('Firewall - Corporate');
  plantAuditEvent(tenant, {
    ...corporate,
    operation: 'Patch',
    verb: 'Patch',
    at: daysAgo(now, 12),
    actor: SYNC_APP,
    result: 'Success',
    properties: [
      {
        name: publicProfile,
        oldValue: 'vendor_msft_firewall_mdmstore_publicprofile_enablefirewall_true',
        newValue: 'vendor_msft_firewall_mdmstore_publicprofile_enablefirewall_false',
      },
    ],
  });
  plantAuditEvent(tenant, { ...corporate, operation: 'Create', verb: 'Create', at: daysAgo(now, 45), actor: DANA, result: 'Success' });

  // Two successful changes, the newer planted first.
  const asr = policy('ASR - Standard protection');
  plantAuditEvent(tenant, { ...asr, operation: 'Patch', verb: 'Patch', at: daysAgo(now, 12), actor: LEE, result: 'Success' });
  plantAuditEvent(tenant, { ...asr, operation: 'Patch', verb: 'Patch', at: daysAgo(now, 20), actor: ALEX, result: 'Success' });

  // The log's id in upper case: Graph compares ids without case.
  const windows2020 = intentNamed('Windows baseline (2020)');
  plantAuditEvent(tenant, {
    ...windows2020,
    resourceId: windows2020.resourceId.toUpperCase(),
    operation: 'Patch',
    verb: 'Patch',
    at: daysAgo(now, 60),
    actor: ALEX,
    result: 'Success',
  });

  // Only a failed attempt: no story.
  plantAuditEvent(tenant, { ...intentNamed('Defender for Endpoint baseline (v5)'), operation: 'Patch', verb: 'Patch', at: daysAgo(now, 5), actor: MEGAN, result: 'Failure' });
  // Older than the window the load reads (a day before the oldest object's last modification): not read.
  plantAuditEvent(tenant, { ...intentNamed('Edge baseline'), operation: 'Patch', verb: 'Patch', at: daysAgo(now, 200), actor: DANA, result: 'Success' });

  // A look-alike that is no finding: its change is not in the report.
  plantAuditEvent(tenant, { ...policy('Firewall - Lab'), operation: 'Patch', verb: 'Patch', at: daysAgo(now, 12), actor: DANA, result: 'Success' });
}
