/** Report 3's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { capitalise, compareText, graphTimestamp } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { POSTURE_FINDING_KINDS } from './finding-kinds.js';
import type { PostureFindingKind } from './finding-kinds.js';
import { ASR_RULES_SETTING, FIREWALL_SETTING } from './load.js';
import type { Intent, SecurityPolicy, SecurityPostureRecords, Template } from './load.js';

const OUTDATED_TONE = severityTone(POSTURE_FINDING_KINDS['baseline-outdated'].severity);

/**
 * The ASR rules by their Intune setting suffix, with Microsoft's names and GUIDs
 * (learn.microsoft.com/defender-endpoint/attack-surface-reduction-rules-reference, "ASR rule to
 * GUID matrix"). Unknown suffixes are shown raw: Microsoft adds rules.
 */
const ASR_RULES: Record<string, { name: string; guid: string }> = {
  blockabuseofexploitedvulnerablesigneddrivers: { name: 'Block abuse of exploited vulnerable signed drivers', guid: '56a863a9-875e-4185-98a7-b882c64b5ce5' },
  blockadobereaderfromcreatingchildprocesses: { name: 'Block Adobe Reader from creating child processes', guid: '7674ba52-37eb-4a4f-a9a1-f0f9a1619a2c' },
  blockallofficeapplicationsfromcreatingchildprocesses: { name: 'Block all Office applications from creating child processes', guid: 'd4f940ab-401b-4efc-aadc-ad5f3c50688a' },
  blockcredentialstealingfromwindowslocalsecurityauthoritysubsystem: {
    name: 'Block credential stealing from the Windows local security authority subsystem (lsass.exe)',
    guid: '9e6c4e1f-7d60-472f-ba1a-a39ef669e4b2',
  },
  blockexecutablecontentfromemailclientandwebmail: { name: 'Block executable content from email client and webmail', guid: 'be9ba2d9-53ea-4cdc-84e5-9b1eeee46550' },
  blockexecutablefilesrunningunlesstheymeetprevalenceagetrustedlistcriterion: {
    name: 'Block executable files from running unless they meet a prevalence, age, or trusted list criterion',
    guid: '01443614-cd74-433a-b99e-2ecdc07bfc25',
  },
  blockexecutionofpotentiallyobfuscatedscripts: { name: 'Block execution of potentially obfuscated scripts', guid: '5beb7efe-fd9a-4556-801d-275e5ffc04cc' },
  blockjavascriptorvbscriptfromlaunchingdownloadedexecutablecontent: {
    name: 'Block JavaScript or VBScript from launching downloaded executable content',
    guid: 'd3e037e1-3eb8-44c8-a917-57927947596d',
  },
  blockofficeapplicationsfromcreatingexecutablecontent: { name: 'Block Office applications from creating executable content', guid: '3b576869-a4ec-4529-8536-b80a7769e899' },
  blockofficeapplicationsfrominjectingcodeintootherprocesses: {
    name: 'Block Office applications from injecting code into other processes',
    guid: '75668c1f-73b5-4cf0-bb93-3ecf5cb7cc84',
  },
  blockofficecommunicationappfromcreatingchildprocesses: {
    name: 'Block Office communication application from creating child processes',
    guid: '26190899-1602-49e8-8b27-eb1d0a1ce869',
  },
  blockpersistencethroughwmieventsubscription: { name: 'Block persistence through WMI event subscription', guid: 'e6db77e5-3df2-4cf1-b95a-636979351e5b' },
  blockprocesscreationsfrompsexecandwmicommands: { name: 'Block process creations originating from PSExec and WMI commands', guid: 'd1e49aac-8f56-4280-b9ba-993a6d77406c' },
  blockrebootingmachineinsafemode: { name: 'Block rebooting machine in Safe Mode', guid: '33ddedf1-c6e0-47cb-833e-de6133960387' },
  blockuntrustedunsignedprocessesthatrunfromusb: { name: 'Block untrusted and unsigned processes that run from USB', guid: 'b2b3f03d-6a65-4f7b-a9c7-1c7ef74a9ba4' },
  blockuseofcopiedorimpersonatedsystemtools: { name: 'Block use of copied or impersonated system tools', guid: 'c0033c00-d16d-4114-a5a0-dc9b3a7d2ceb' },
  blockwebshellcreationforservers: { name: 'Block Webshell creation for Servers', guid: 'a8f5898e-1dc8-49a9-9878-85004b8a61e6' },
  blockwin32apicallsfromofficemacros: { name: 'Block Win32 API calls from Office macros', guid: '92e97fa1-2edf-4476-bdd6-9dd0b4dddc7b' },
  useadvancedprotectionagainstransomware: { name: 'Use advanced protection against ransomware', guid: 'c1db55ab-c21a-4637-bb3f-a12568109d35' },
};

/** ASR modes as the setting values spell them; Warn is a block with a user bypass, so it enforces. */
const ASR_MODES = ['block', 'audit', 'warn', 'off'] as const;
type AsrMode = (typeof ASR_MODES)[number];
const ASR_MODE_LABELS: Record<AsrMode, string> = { block: 'Block', audit: 'Audit', warn: 'Warn', off: 'Off' };

/** Intent-era template types that are security baselines (`securityTemplate` is endpoint security, not a baseline). */
const BASELINE_TEMPLATE_TYPES = new Set([
  'securityBaseline',
  'advancedThreatProtectionSecurityBaseline',
  'microsoftEdgeSecurityBaseline',
  'microsoftOffice365ProPlusSecurityBaseline',
  'cloudPC',
]);

export interface AsrRuleSetting {
  rule: string;
  name: string;
  mode: AsrMode;
}

/** The ASR rules a policy sets, with their modes; anything that is not a rule mode is ignored. */
export function asrRules(policy: SecurityPolicy): AsrRuleSetting[] {
  const rules: AsrRuleSetting[] = [];
  for (const choice of policy.choices) {
    if (!choice.settingDefinitionId.startsWith(`${ASR_RULES_SETTING}_`)) continue;
    const rule = choice.settingDefinitionId.slice(ASR_RULES_SETTING.length + 1);
    const mode = ASR_MODES.find((candidate) => choice.value === `${choice.settingDefinitionId}_${candidate}`);
    if (!mode) continue; // per-rule exclusions and other children
    rules.push({ rule, name: ASR_RULES[rule]?.name ?? rule, mode });
  }
  return rules;
}

/**
 * Firewall profiles a policy sets (Firewall CSP `MdmStore/{Domain,Private,Public}Profile/EnableFirewall`,
 * learn.microsoft.com/windows/client-management/mdm/firewall-csp): `_true` on, `_false` off; a profile
 * the policy leaves out is not configured, which is not "off".
 */
export function firewallProfiles(policy: SecurityPolicy): Array<{ profile: 'domain' | 'private' | 'public'; enabled: boolean }> {
  const profiles: Array<{ profile: 'domain' | 'private' | 'public'; enabled: boolean }> = [];
  for (const choice of policy.choices) {
    const match = FIREWALL_SETTING.exec(choice.settingDefinitionId);
    if (!match) continue;
    const profile = match[1] as 'domain' | 'private' | 'public';
    if (choice.value === `${choice.settingDefinitionId}_false`) profiles.push({ profile, enabled: false });
    else if (choice.value === `${choice.settingDefinitionId}_true`) profiles.push({ profile, enabled: true });
  }
  return profiles;
}

/** `<baseId>_<version>` of a settings-catalog template id, when it has that shape. */
function templateVersion(templateId: string): { baseId: string; version: number } | null {
  const match = /^(.+)_(\d+)$/.exec(templateId);
  return match ? { baseId: match[1]!.toLowerCase(), version: Number(match[2]) } : null;
}

export type BaselineVerdict = { outdated: false; current: string } | { outdated: true; current: string; reason: string };

/**
 * Settings-catalog baselines: outdated when another baseline policy in the tenant uses a later
 * version of the same template ("When a new version of a baseline becomes available, it replaces
 * the previous version", learn.microsoft.com/mem/intune/protect/security-baselines).
 */
export function settingsCatalogBaselineVerdicts(policies: readonly SecurityPolicy[]): Map<string, BaselineVerdict> {
  const baselines = policies.filter((policy) => policy.templateFamily === 'baseline');
  const newest = new Map<string, SecurityPolicy>();
  for (const policy of baselines) {
    const parsed = templateVersion(policy.templateId);
    if (!parsed) continue;
    const best = newest.get(parsed.baseId);
    if (!best || parsed.version > templateVersion(best.templateId)!.version) newest.set(parsed.baseId, policy);
  }
  const verdicts = new Map<string, BaselineVerdict>();
  for (const policy of baselines) {
    const current = policy.templateDisplayVersion ?? policy.templateId;
    const parsed = templateVersion(policy.templateId);
    const best = parsed ? newest.get(parsed.baseId) : undefined;
    const bestVersion = best ? templateVersion(best.templateId)!.version : undefined;
    if (parsed && best && bestVersion !== undefined && bestVersion > parsed.version) {
      verdicts.set(policy.id, { outdated: true, current, reason: `on ${current}; ${best.templateDisplayVersion ?? `version ${bestVersion}`} is in use in "${best.name}"` });
    } else {
      verdicts.set(policy.id, { outdated: false, current });
    }
  }
  return verdicts;
}

/** An intent's verdict; `unchecked` when its template is not among those Graph returned. */
export type IntentBaselineVerdict = (BaselineVerdict & { template: Template }) | { outdated: false; current: string; unchecked: string; template: undefined };

/**
 * Intent-era baselines: outdated when the template is deprecated, or a later, non-deprecated
 * template of the same type, subtype and platform exists. An intent whose template is not listed
 * cannot be judged (it may not even be a baseline): shown as not checked, never a finding.
 */
export function intentBaselineVerdict(intent: Intent, templates: readonly Template[]): IntentBaselineVerdict | undefined {
  const template = templates.find((candidate) => candidate.id?.toLowerCase() === intent.templateId?.toLowerCase());
  if (!template) {
    return { outdated: false, current: 'unknown template', unchecked: `its template ${intent.templateId ?? '(none)'} is not among the templates Graph returned`, template };
  }
  if (!BASELINE_TEMPLATE_TYPES.has(String(template.templateType))) return undefined;
  const current = template.versionInfo ?? template.displayName ?? template.id ?? '';
  if (template.isDeprecated) return { outdated: true, current, reason: `on ${current}, a deprecated version`, template };
  const published = graphTimestamp(template.publishedDateTime);
  const newer = templates
    .filter(
      (candidate) =>
        candidate.id !== template.id &&
        !candidate.isDeprecated &&
        candidate.templateType === template.templateType &&
        (candidate.templateSubtype ?? 'none') === (template.templateSubtype ?? 'none') &&
        (candidate.platformType ?? '') === (template.platformType ?? ''),
    )
    .filter((candidate) => {
      const date = graphTimestamp(candidate.publishedDateTime);
      return date && published && date.getTime() > published.getTime();
    })
    .sort((a, b) => graphTimestamp(b.publishedDateTime)!.getTime() - graphTimestamp(a.publishedDateTime)!.getTime())[0];
  if (newer) return { outdated: true, current, reason: `on ${current}; ${newer.versionInfo ?? newer.displayName} is available`, template };
  return { outdated: false, current, template };
}

export function deriveSecurityPosture(records: SecurityPostureRecords, _context: DeriveContext): DerivedReport<PostureFindingKind> {
  const rows: Array<ReportRow & { order: number }> = [];
  const findings: FindingDraft<PostureFindingKind>[] = [];
  const policyLink = (policy: SecurityPolicy) =>
    intuneLinks.configurationPolicy({
      id: policy.id,
      isAssigned: policy.isAssigned,
      technologies: policy.technologies,
      templateId: policy.templateId,
      platforms: policy.platforms,
    });

  // Every policy is scanned, not only the ASR and firewall templates: the same settings are set
  // from the plain settings catalog and from baselines (the Defender for Endpoint baseline sets ASR).
  for (const policy of records.policies) {
    const rules = asrRules(policy);
    for (const rule of rules) {
      const status = rule.mode === 'audit' ? 'Audit only: not enforced' : rule.mode === 'off' ? 'Disabled by policy' : 'Enforced';
      const statusTone: CellTone = rule.mode === 'audit' ? severityTone(POSTURE_FINDING_KINDS['asr-rule-audit'].severity) : rule.mode === 'off' ? 'neutral' : 'ok';
      rows.push({
        id: policy.id,
        area: 'Attack surface reduction',
        policy: policy.name,
        setting: rule.name,
        value: ASR_MODE_LABELS[rule.mode],
        status,
        statusTone,
        link: policyLink(policy),
        order: rule.mode === 'audit' ? 0 : 3,
      });
    }
    const audited = rules.filter((rule) => rule.mode === 'audit');
    if (audited.length > 0) {
      findings.push({
        kind: 'asr-rule-audit',
        subjectId: policy.id,
        subjectName: policy.name,
        detail: `${audited.length === 1 ? '1 attack surface reduction rule is in audit mode, so it only logs' : `${audited.length} attack surface reduction rules are in audit mode, so they only log`}: ${audited.map((rule) => rule.name).join('; ')}.`,
        ruleKey: audited
          .map((rule) => ASR_RULES[rule.rule]?.guid ?? rule.rule)
          .sort()
          .join(','),
      });
    }

    const profiles = firewallProfiles(policy);
    for (const { profile, enabled } of profiles) {
      rows.push({
        id: policy.id,
        area: 'Firewall',
        policy: policy.name,
        setting: `${capitalise(profile)} profile`,
        value: enabled ? 'On' : 'Off',
        status: enabled ? 'Enforced' : 'Firewall switched off by policy',
        statusTone: enabled ? 'ok' : severityTone(POSTURE_FINDING_KINDS['firewall-profile-off'].severity),
        link: policyLink(policy),
        order: enabled ? 3 : 0,
      });
    }
    const off = profiles.filter((profile) => !profile.enabled).map((profile) => profile.profile);
    if (off.length > 0) {
      findings.push({
        kind: 'firewall-profile-off',
        subjectId: policy.id,
        subjectName: policy.name,
        detail: `The policy switches Windows Firewall off for the ${off.join(', ')} profile${off.length === 1 ? '' : 's'}.`,
        ruleKey: [...off].sort().join(','),
      });
    }
  }

  for (const [policyId, verdict] of settingsCatalogBaselineVerdicts(records.policies)) {
    const policy = records.policies.find((candidate) => candidate.id === policyId)!;
    rows.push({
      id: policy.id,
      area: 'Security baseline',
      policy: policy.name,
      setting: policy.templateDisplayName ?? 'Security baseline',
      value: verdict.current,
      status: verdict.outdated ? `Outdated: ${verdict.reason}` : 'Current',
      statusTone: verdict.outdated ? OUTDATED_TONE : 'ok',
      link: policyLink(policy),
      order: verdict.outdated ? 1 : 4,
    });
    if (verdict.outdated)
      findings.push({ kind: 'baseline-outdated', subjectId: policy.id, subjectName: policy.name, detail: `Baseline ${verdict.reason}.`, ruleKey: policy.templateId });
  }

  for (const intent of records.intents) {
    const verdict = intentBaselineVerdict(intent, records.templates);
    if (!verdict) continue;
    const name = intent.displayName ?? intent.id ?? '';
    const migrating = intent.isMigratingToConfigurationPolicy ? ' (being migrated to the settings catalog)' : '';
    const status = verdict.outdated ? `Outdated: ${verdict.reason}` : 'unchecked' in verdict ? `Could not check: ${verdict.unchecked}` : 'Current';
    rows.push({
      id: String(intent.id),
      area: 'Security baseline',
      policy: name,
      setting: verdict.template?.displayName ?? 'Security baseline',
      value: verdict.current,
      status: status + migrating,
      statusTone: verdict.outdated ? OUTDATED_TONE : 'unchecked' in verdict ? 'neutral' : 'ok',
      // An intent-era baseline has no sourced page of its own: the list it is in.
      link: intuneLinks.securityBaselines(),
      linkLabel: 'the security baselines list',
      order: verdict.outdated ? 1 : 4,
    });
    if (verdict.outdated)
      findings.push({ kind: 'baseline-outdated', subjectId: String(intent.id), subjectName: name, detail: `Baseline ${verdict.reason}.`, ruleKey: intent.templateId ?? '' });
  }

  rows.sort(
    (a, b) =>
      a.order - b.order || compareText(String(a.area), String(b.area)) || compareText(String(a.policy), String(b.policy)) || compareText(String(a.setting), String(b.setting)),
  );
  return {
    state: 'loaded',
    notice: null,
    columns: [
      { key: 'area', label: 'Area', available: true, format: 'text' },
      { key: 'policy', label: 'Policy', available: true, format: 'text' },
      { key: 'setting', label: 'Rule or setting', available: true, format: 'text' },
      { key: 'value', label: 'Value', available: true, format: 'text' },
      { key: 'status', label: 'Status', available: true, format: 'status', toneKey: 'statusTone' },
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
  };
}
