/** Report 3's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { capitalise, compareText, graphTimestamp, joinAnd } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import { ROW_SCOPE_TAGS_KEY, scopeTagsCell } from '../../viewer-scope/scope-tag-ids.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { POSTURE_FINDING_KINDS } from './finding-kinds.js';
import type { PostureFindingKind } from './finding-kinds.js';
import { ASR_RULES_SETTING, FIREWALL_SETTING, isAuditOnly } from '../../policy-settings/settings-read.js';
import type { Intent, PolicyTemplate, PolicyTemplates, SecurityPolicy, SecurityPostureRecords, Template } from './records.js';

const OUTDATED_TONE = severityTone(POSTURE_FINDING_KINDS['baseline-outdated'].severity);

/**
 * The ASR rules by their Intune setting suffix, with Microsoft's names and GUIDs
 * (learn.microsoft.com/defender-endpoint/attack-surface-reduction-rules-reference, "ASR rule to
 * GUID matrix"). Unknown suffixes are shown raw: Microsoft adds rules.
 */
export const ASR_RULES: Readonly<Record<string, { name: string; guid: string }>> = {
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

export interface AsrRuleSetting {
  rule: string;
  name: string;
  mode: AsrMode;
  /** The mode as the Intune admin center shows it: its option's display name where the definition came, else the mode's label. */
  modeName: string;
}

/**
 * The ASR rules a policy sets, with their modes; anything that is not a rule mode is ignored. A rule
 * is named as the Intune admin center names it, by its setting definition's `displayName` read with
 * the settings (load.ts, `settingNames`), else by Microsoft's name for it in the table above, else
 * by its suffix; its mode by its option's `displayName` (docs/finding-rules.md, "Settings as the
 * admin center names them").
 */
export function asrRules(policy: Pick<SecurityPolicy, 'choices' | 'settingNames'>): AsrRuleSetting[] {
  const rules: AsrRuleSetting[] = [];
  for (const choice of policy.choices) {
    if (!choice.settingDefinitionId.startsWith(`${ASR_RULES_SETTING}_`)) continue;
    const rule = choice.settingDefinitionId.slice(ASR_RULES_SETTING.length + 1);
    const mode = ASR_MODES.find((candidate) => choice.value === `${choice.settingDefinitionId}_${candidate}`);
    if (!mode) continue; // per-rule exclusions and other children
    const name = policy.settingNames?.[choice.settingDefinitionId] ?? ASR_RULES[rule]?.name ?? rule;
    rules.push({ rule, name, mode, modeName: choice.optionName ?? ASR_MODE_LABELS[mode] });
  }
  return rules;
}

/** One firewall profile a policy sets, and its words as the admin center shows them. */
export interface FirewallProfileSetting {
  profile: 'domain' | 'private' | 'public';
  enabled: boolean;
  /** The setting as the Intune admin center names it (its definition's `displayName`), else "<Profile> profile". */
  name: string;
  /** Its value as the admin center shows it (its option's `displayName`), else "On" or "Off". */
  valueName: string;
}

/**
 * Firewall profiles a policy sets (Firewall CSP `MdmStore/{Domain,Private,Public}Profile/EnableFirewall`,
 * learn.microsoft.com/windows/client-management/mdm/firewall-csp): `_true` on, `_false` off; a profile
 * the policy leaves out is not configured, which is not "off".
 */
export function firewallProfiles(policy: Pick<SecurityPolicy, 'choices' | 'settingNames'>): FirewallProfileSetting[] {
  const profiles: FirewallProfileSetting[] = [];
  for (const choice of policy.choices) {
    const match = FIREWALL_SETTING.exec(choice.settingDefinitionId);
    if (!match) continue;
    const profile = match[1] as 'domain' | 'private' | 'public';
    const enabled = choice.value === `${choice.settingDefinitionId}_true` ? true : choice.value === `${choice.settingDefinitionId}_false` ? false : null;
    if (enabled === null) continue;
    const name = policy.settingNames?.[choice.settingDefinitionId] ?? `${capitalise(profile)} profile`;
    profiles.push({ profile, enabled, name, valueName: choice.optionName ?? (enabled ? 'On' : 'Off') });
  }
  return profiles;
}

// ---- deployment (docs/finding-rules.md, report 3, "Deployed or not") ------------------------

/**
 * Whether a policy reaches anyone. Assigning is what deploys a policy: "When you assign the
 * policy, the users and devices receive your policy", and saving "doesn't assign your policy"
 * (learn.microsoft.com/intune/device-configuration/assign-device-profile). Exclusions only subtract
 * from an included scope, so a policy assigned to exclusions alone reaches no one. Any other target,
 * an unrecognised one too, and assignments through a policy set count as deployed: group membership
 * is report 2's to judge, and a wrong "not deployed" would hide findings.
 */
export type Deployment = { state: 'deployed'; note: string | null } | { state: 'not-deployed' } | { state: 'unknown' };

export const NOT_DEPLOYED = 'Not deployed (assigned to no one)';
/** Beside the rows of a policy whose settings could not all be read: shown, not judged. */
const NOT_JUDGED = 'not judged: not all its settings could be read';
const DEPLOYMENT_UNKNOWN = 'whether the policy is assigned could not be checked';

export function policyDeployment(policy: Pick<SecurityPolicy, 'assignments' | 'isAssigned'>): Deployment {
  if (policy.assignments !== null) {
    if (policy.assignments.some((assignment) => assignment.targetType !== 'exclusionGroupAssignmentTarget')) return { state: 'deployed', note: null };
    // Graph says assigned but listed none: an expansion can come back empty, so trust `isAssigned`.
    if (policy.assignments.length === 0 && policy.isAssigned === true) return { state: 'deployed', note: 'Graph reports it assigned without listing the assignments' };
    return { state: 'not-deployed' };
  }
  if (policy.isAssigned === true) return { state: 'deployed', note: null };
  if (policy.isAssigned === false) return { state: 'not-deployed' };
  return { state: 'unknown' };
}

/** An intent's `isAssigned` ("Signifies whether or not the intent is assigned to users", deviceManagementIntent). */
export function intentDeployment(intent: Pick<Intent, 'isAssigned'>): Deployment {
  if (intent.isAssigned === true) return { state: 'deployed', note: null };
  if (intent.isAssigned === false) return { state: 'not-deployed' };
  return { state: 'unknown' };
}

// ---- completeness (docs/finding-rules.md, report 3, "Completeness") --------------------------

export type Completeness = { complete: true; note: string | null } | { complete: false; reason: string };

/**
 * A policy is judged on all its settings or not at all: the top-level settings read must number
 * its `settingCount` ("Number of settings"), after every nextLink was followed. Without a
 * `settingCount`, a read that ran to its last page is taken as whole.
 */
export function settingsCompleteness(policy: Pick<SecurityPolicy, 'settingCount' | 'settingsRead' | 'settingsPaged' | 'settingsError'>): Completeness {
  const of =
    policy.settingCount === null ? `${policy.settingsRead} settings read (Graph did not report how many it has)` : `${policy.settingsRead} of ${policy.settingCount} settings read`;
  if (policy.settingsError !== null) return { complete: false, reason: `${policy.settingsError}; ${of}` };
  if (!policy.settingsPaged) return { complete: false, reason: `${of}; more were not read` };
  if (policy.settingCount === null) return { complete: true, note: 'setting count not reported' };
  if (policy.settingsRead !== policy.settingCount) return { complete: false, reason: of };
  return { complete: true, note: null };
}

// ---- baselines (docs/finding-rules.md, report 3, "Security baselines") -----------------------

export type BaselineVerdict =
  { status: 'current'; current: string; note: string | null } | { status: 'outdated'; current: string; reason: string } | { status: 'unchecked'; current: string; reason: string };

/** Template lifecycle states that mean a newer version replaced it (deviceManagementTemplateLifecycleState). */
const REPLACED_STATES = new Set(['superseded', 'deprecated', 'retired']);

const sameId = (a: string | null | undefined, b: string | null | undefined) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

/** A template's version as people read it ("25H2"). */
const templateLabel = (template: PolicyTemplate) => template.displayVersion ?? template.displayName ?? template.id ?? '';

/** The active templates of one baseline (`baseId`): what "current" is, as Graph says it. */
function activeVersions(templates: readonly PolicyTemplate[], baseId: string | null | undefined): PolicyTemplate[] {
  return templates.filter((template) => sameId(template.baseId, baseId) && template.lifecycleState === 'active');
}

/**
 * The base of a settings catalog template id: "Key of the template document, composed of BaseId and
 * Version" (deviceManagementConfigurationPolicyTemplate). Used only to name the current version of
 * a template Graph did not list, never to compare versions: the version numbers are not
 * chronological (Windows "November 2021" is `_3`, "23H2" is `_1`).
 */
function baseIdOf(templateId: string): string | null {
  const match = /^(.+)_\d+$/.exec(templateId);
  return match ? match[1]! : null;
}

/**
 * A settings-catalog baseline against the template it was made from: current when that template is
 * `active`, outdated when it is `superseded`, `deprecated` or `retired` (naming the active version
 * of the same baseline), a preview when `draft`, and "could not check" when the template is not
 * listed, `invalid`, in a state Graph did not have when this was written, or the list could not be
 * read. Version numbers are never compared.
 */
export function settingsCatalogBaselineVerdict(policy: SecurityPolicy, policyTemplates: PolicyTemplates): BaselineVerdict {
  const template = policyTemplates.ok ? policyTemplates.value.find((candidate) => sameId(candidate.id, policy.templateId)) : undefined;
  const current = policy.templateDisplayVersion ?? (template ? templateLabel(template) : null) ?? (policy.templateId || 'unknown version');
  if (!policyTemplates.ok) return { status: 'unchecked', current, reason: policyTemplates.reason };
  const active = activeVersions(policyTemplates.value, template?.baseId ?? baseIdOf(policy.templateId));
  const activeNames = active.map(templateLabel).join(' and ');
  const state = template?.lifecycleState;
  if (template && state === 'active') return { status: 'current', current, note: null };
  if (template && state === 'draft') return { status: 'current', current, note: 'a preview version' };
  if (template && typeof state === 'string' && REPLACED_STATES.has(state)) {
    return {
      status: 'outdated',
      current,
      reason: active.length > 0 ? `on ${current}, a ${state} version; ${activeNames} is current` : `on ${current}, a ${state} version`,
    };
  }
  const why = template
    ? `its template ${policy.templateId} is in the state "${String(state ?? 'none')}"`
    : `its template ${policy.templateId || '(none)'} is not among the baseline templates Graph returned`;
  return { status: 'unchecked', current, reason: active.length > 0 ? `${why}; ${activeNames} is current` : why };
}

/** Intent-era template types that are security baselines (`securityTemplate` is endpoint security, not a baseline). */
const BASELINE_TEMPLATE_TYPES = new Set([
  'securityBaseline',
  'advancedThreatProtectionSecurityBaseline',
  'microsoftEdgeSecurityBaseline',
  'microsoftOffice365ProPlusSecurityBaseline',
  'cloudPC',
]);

/**
 * Each intent-era baseline product's settings catalog baseline (`baseId`): Learn lists both
 * formats' versions as versions of one baseline ("In May 2023, Intune began rollout of a new
 * security baseline format for each new baseline release or version update",
 * learn.microsoft.com/intune/device-security/security-baselines/overview), and intent-era baselines
 * get no new versions. Products, not versions: whether a newer version exists is Graph's answer
 * (`lifecycleState`). The Microsoft 365 Apps mapping is inferred from the names.
 */
export const SETTINGS_CATALOG_BASELINE_OF: Readonly<Record<string, string>> = {
  securityBaseline: '66df8dce-0166-4b82-92f7-1f74e3ca17a3',
  advancedThreatProtectionSecurityBaseline: '49b8320f-e179-472e-8e2c-2fde00289ca2',
  cloudPC: 'b00e1a0f-19dd-41de-8243-e6733ca7b4ae',
  microsoftEdgeSecurityBaseline: 'c66347b7-8325-4954-a235-3bf2233dfbfd',
  microsoftOffice365ProPlusSecurityBaseline: '90316f12-246d-44c6-a767-f87692e86083',
};

/** An intent's verdict with its template; the template is absent when Graph did not list it. */
export type IntentBaselineVerdict = BaselineVerdict & { template: Template | undefined };

/**
 * Intent-era baselines: outdated when the template is deprecated, when a later, non-deprecated
 * template of the same type, subtype and platform exists, or when the product's settings catalog
 * baseline has an active version (newer versions are made only there). An intent whose template is
 * not listed cannot be judged (it may not even be a baseline); nor can the last step when the
 * settings catalog templates could not be read or do not include the product's baseline.
 */
export function intentBaselineVerdict(intent: Intent, templates: readonly Template[], policyTemplates: PolicyTemplates): IntentBaselineVerdict | undefined {
  const template = templates.find((candidate) => sameId(candidate.id, intent.templateId));
  if (!template) {
    return { status: 'unchecked', current: 'unknown template', reason: `its template ${intent.templateId ?? '(none)'} is not among the templates Graph returned`, template };
  }
  if (!BASELINE_TEMPLATE_TYPES.has(String(template.templateType))) return undefined;
  const current = template.versionInfo ?? template.displayName ?? template.id ?? '';
  if (template.isDeprecated) return { status: 'outdated', current, reason: `on ${current}, a deprecated version`, template };
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
  if (newer) return { status: 'outdated', current, reason: `on ${current}; ${newer.versionInfo ?? newer.displayName} is available`, template };
  if (!policyTemplates.ok)
    return { status: 'unchecked', current, reason: `whether a newer version exists in the settings catalog is unknown: ${policyTemplates.reason}`, template };
  const baseId = SETTINGS_CATALOG_BASELINE_OF[String(template.templateType)];
  const family = policyTemplates.value.filter((candidate) => sameId(candidate.baseId, baseId));
  if (family.length === 0) {
    return {
      status: 'unchecked',
      current,
      reason: 'whether a newer version exists in the settings catalog is unknown: Graph returned no template of its settings catalog baseline',
      template,
    };
  }
  const active = family.filter((candidate) => candidate.lifecycleState === 'active');
  if (active.length > 0) {
    const names = active.map((candidate) => [candidate.displayName, candidate.displayVersion].filter(Boolean).join(' ')).join('; ');
    return { status: 'outdated', current, reason: `on ${current}; newer versions exist only in the settings catalog: ${names}`, template };
  }
  return { status: 'current', current, note: null, template };
}

const NEUTRAL: CellTone = 'neutral';

export function deriveSecurityPosture(records: SecurityPostureRecords, _context: DeriveContext): DerivedReport<PostureFindingKind> {
  const rows: Array<ReportRow & { order: number }> = [];
  const findings: FindingDraft<PostureFindingKind>[] = [];
  const uncheckedSubjects: Array<UncheckedSubject<PostureFindingKind>> = [];
  const policyLink = (policy: SecurityPolicy) =>
    intuneLinks.configurationPolicy({
      id: policy.id,
      isAssigned: policy.isAssigned ?? (policy.assignments?.length ?? 0) > 0,
      technologies: policy.technologies,
      templateId: policy.templateId,
      platforms: policy.platforms,
    });
  const unknownSuffix = (deployment: Deployment) => (deployment.state === 'unknown' ? `; ${DEPLOYMENT_UNKNOWN}` : '');
  const unknownDetail = (deployment: Deployment) => (deployment.state === 'unknown' ? ` Whether the policy is assigned could not be checked.` : '');

  // Every policy is scanned, not only the ASR and firewall templates: the same settings are set
  // from the plain settings catalog and from baselines (the Defender for Endpoint baseline sets ASR).
  for (const policy of records.policies) {
    if (isAuditOnly(policy)) continue;
    const deployment = policyDeployment(policy);
    const deployed = deployment.state !== 'not-deployed';
    const completeness = settingsCompleteness(policy);
    // A policy is judged on all its settings or not at all: one read in part makes no finding, and
    // its rows say so. (A finding from part of the rules would also name another set of rules than
    // the whole policy's, and so count as new.)
    const judged = deployed && completeness.complete;
    if (deployed && !completeness.complete) {
      // Never a clean pass: the settings not read may hold a rule in audit or a profile off.
      uncheckedSubjects.push({ kind: 'asr-rule-audit', subjectId: policy.id }, { kind: 'firewall-profile-off', subjectId: policy.id });
      rows.push({
        id: policy.id,
        [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(policy.roleScopeTagIds),
        area: 'Policy settings',
        policy: policy.name,
        setting: 'Attack surface reduction and firewall settings',
        value: policy.settingCount === null ? `${policy.settingsRead} read (count not reported)` : `${policy.settingsRead} of ${policy.settingCount}`,
        status: `Could not check: ${completeness.reason}${unknownSuffix(deployment)}`,
        statusTone: NEUTRAL,
        link: policyLink(policy),
        order: 2,
      });
    }
    const notes = [
      ...(deployment.state === 'deployed' && deployment.note ? [deployment.note] : []),
      ...(completeness.complete ? (completeness.note ? [completeness.note] : []) : deployed ? [NOT_JUDGED] : []),
    ];
    const noteSuffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';

    const rules = asrRules(policy);
    for (const rule of rules) {
      const status = !deployed ? NOT_DEPLOYED : rule.mode === 'audit' ? 'Audit only: not enforced' : rule.mode === 'off' ? 'Disabled by policy' : 'Enforced';
      const statusTone: CellTone = !judged
        ? NEUTRAL
        : rule.mode === 'audit'
          ? severityTone(POSTURE_FINDING_KINDS['asr-rule-audit'].severity)
          : rule.mode === 'off'
            ? NEUTRAL
            : 'ok';
      rows.push({
        id: policy.id,
        [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(policy.roleScopeTagIds),
        area: 'Attack surface reduction',
        policy: policy.name,
        setting: rule.name,
        value: rule.modeName,
        status: deployed ? status + noteSuffix + unknownSuffix(deployment) : status,
        statusTone,
        link: policyLink(policy),
        order: !deployed ? 5 : rule.mode === 'audit' ? 0 : 3,
      });
    }
    const audited = rules.filter((rule) => rule.mode === 'audit');
    if (judged && audited.length > 0) {
      findings.push({
        kind: 'asr-rule-audit',
        subjectId: policy.id,
        subjectName: policy.name,
        detail: `${audited.length === 1 ? '1 attack surface reduction rule is in audit mode, so it only logs' : `${audited.length} attack surface reduction rules are in audit mode, so they only log`}: ${audited.map((rule) => rule.name).join('; ')}.${unknownDetail(deployment)}`,
        ruleKey: audited
          .map((rule) => ASR_RULES[rule.rule]?.guid ?? rule.rule)
          .sort()
          .join(','),
      });
    }

    const profiles = firewallProfiles(policy);
    for (const { enabled, name, valueName } of profiles) {
      rows.push({
        id: policy.id,
        [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(policy.roleScopeTagIds),
        area: 'Firewall',
        policy: policy.name,
        setting: name,
        value: valueName,
        status: !deployed ? NOT_DEPLOYED : (enabled ? 'Enforced' : 'Firewall switched off by policy') + noteSuffix + unknownSuffix(deployment),
        statusTone: !judged ? NEUTRAL : enabled ? 'ok' : severityTone(POSTURE_FINDING_KINDS['firewall-profile-off'].severity),
        link: policyLink(policy),
        order: !deployed ? 5 : enabled ? 3 : 0,
      });
    }
    const off = profiles.filter((profile) => !profile.enabled).map((profile) => profile.profile);
    if (judged && off.length > 0) {
      findings.push({
        kind: 'firewall-profile-off',
        subjectId: policy.id,
        subjectName: policy.name,
        detail: `The policy switches Windows Firewall off for the ${joinAnd(off)} profile${off.length === 1 ? '' : 's'}.${unknownDetail(deployment)}`,
        ruleKey: [...off].sort().join(','),
      });
    }
  }

  for (const policy of records.policies) {
    if (policy.templateFamily !== 'baseline') continue;
    const deployment = policyDeployment(policy);
    const verdict = settingsCatalogBaselineVerdict(policy, records.policyTemplates);
    const auditOnly = isAuditOnly(policy) ? ' (an audit-only baseline: it configures nothing)' : '';
    rows.push({
      ...baselineRow(verdict, deployment, auditOnly),
      id: policy.id,
      [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(policy.roleScopeTagIds),
      policy: policy.name,
      setting: policy.templateDisplayName ?? 'Security baseline',
      link: policyLink(policy),
    });
    if (deployment.state === 'not-deployed') continue;
    if (verdict.status === 'unchecked') uncheckedSubjects.push({ kind: 'baseline-outdated', subjectId: policy.id });
    if (verdict.status === 'outdated')
      findings.push({
        kind: 'baseline-outdated',
        subjectId: policy.id,
        subjectName: policy.name,
        detail: `Baseline ${verdict.reason}.${unknownDetail(deployment)}`,
        ruleKey: policy.templateId,
      });
  }

  for (const intent of records.intents) {
    const verdict = intentBaselineVerdict(intent, records.templates, records.policyTemplates);
    if (!verdict) continue;
    const deployment = intentDeployment(intent);
    const name = intent.displayName ?? intent.id ?? '';
    const migrating = intent.isMigratingToConfigurationPolicy ? ' (being migrated to the settings catalog)' : '';
    rows.push({
      ...baselineRow(verdict, deployment, migrating),
      id: String(intent.id),
      [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(intent.roleScopeTagIds),
      policy: name,
      setting: verdict.template?.displayName ?? 'Security baseline',
      // An intent-era baseline has no sourced page of its own: the list it is in.
      link: intuneLinks.securityBaselines(),
      linkLabel: 'the security baselines list',
    });
    if (deployment.state === 'not-deployed') continue;
    if (verdict.status === 'unchecked') uncheckedSubjects.push({ kind: 'baseline-outdated', subjectId: String(intent.id) });
    if (verdict.status === 'outdated')
      findings.push({
        kind: 'baseline-outdated',
        subjectId: String(intent.id),
        subjectName: name,
        detail: `Baseline ${verdict.reason}.${unknownDetail(deployment)}`,
        ruleKey: intent.templateId ?? '',
      });
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
      { key: 'policy', label: 'Policy', available: true, format: 'text', role: 'name' },
      { key: 'setting', label: 'Rule or setting', available: true, format: 'text', role: 'wide' },
      { key: 'value', label: 'Value', available: true, format: 'text' },
      { key: 'status', label: 'Status', available: true, format: 'status', toneKey: 'statusTone' },
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
    uncheckedSubjects,
  };
}

/** A baseline's row cells: its version, and its status as the verdict and the deployment make it. */
function baselineRow(verdict: BaselineVerdict, deployment: Deployment, suffix: string): { area: string; value: string; status: string; statusTone: CellTone; order: number } {
  const base = { area: 'Security baseline', value: verdict.current };
  if (deployment.state === 'not-deployed') return { ...base, status: NOT_DEPLOYED + suffix, statusTone: NEUTRAL, order: 5 };
  const unknown = deployment.state === 'unknown' ? `; ${DEPLOYMENT_UNKNOWN}` : deployment.note ? ` (${deployment.note})` : '';
  switch (verdict.status) {
    case 'outdated':
      return { ...base, status: `Outdated: ${verdict.reason}${suffix}${unknown}`, statusTone: OUTDATED_TONE, order: 1 };
    case 'unchecked':
      return { ...base, status: `Could not check: ${verdict.reason}${suffix}${unknown}`, statusTone: NEUTRAL, order: 2 };
    case 'current':
      return { ...base, status: `Current${verdict.note ? ` (${verdict.note})` : ''}${suffix}${unknown}`, statusTone: 'ok', order: 4 };
  }
}
