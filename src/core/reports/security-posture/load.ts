/**
 * Report 3's Graph reads, kept to the fields `derive` reads: the settings catalog policies with
 * their assignments, each policy's `/settings` through `$batch` (or from what the last load kept,
 * when the policy has not changed since), the baseline templates of the settings catalog, and the
 * intent-era baselines with their templates.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { readFilteredOrWhole } from '../../graph/filtered-read.js';
import { asString } from '../graph-values.js';
import type { LoadContext, LoadMemory } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { optionalReadFailure } from '../optional-read.js';
import { loadSideBySide } from '../side-by-side.js';
import { selectOf } from '../../graph/upstream-read.js';
import { BASELINE_TEMPLATES_READ, INTENTS_READ, SECURITY_POLICIES_READ, TEMPLATES_READ } from './reads.js';
import { readAuditLog } from '../../audit-story/read-audit-log.js';
import { settingValues } from '../../policy-settings/setting-values.js';
import type { SettingValue } from '../../policy-settings/setting-values.js';
import { scopeTagIdsOf } from '../../viewer-scope/scope-tag-ids.js';
import { isAuditOnly, readPolicySettings, relevantChoices } from '../../policy-settings/settings-read.js';
import type { ChoiceValue, SettingsRead } from '../../policy-settings/settings-read.js';
import type { Intent, PolicyTemplate, PolicyTemplates, SecurityPolicy, SecurityPostureRecords, Template } from './records.js';

type GraphPolicy = Beta.DeviceManagementConfigurationPolicy & { settings?: unknown; 'settings@odata.nextLink'?: unknown };

/** The namespace-free name of an `@odata.type`, or null. */
function odataType(value: unknown): string | null {
  const type = typeof value === 'object' && value !== null ? asString((value as Record<string, unknown>)['@odata.type']) : null;
  return type ? type.replace(/^#?microsoft\.graph\./, '') : null;
}

/**
 * A settings catalog policy as Graph returns it with `$expand=settings,assignments`, kept to what
 * the rules read. Absent `assignments` or `isAssigned` stay null (not "unassigned"): the rules
 * decide what an unknown means (docs/finding-rules.md, report 3).
 */
export function projectPolicy(policy: GraphPolicy): SecurityPolicy {
  const template = policy.templateReference ?? {};
  const settings = Array.isArray(policy.settings) ? policy.settings : [];
  return {
    id: String(policy.id),
    name: policy.name ?? String(policy.id),
    templateFamily: asString(template.templateFamily) ?? 'none',
    templateId: asString(template.templateId) ?? '',
    templateDisplayName: asString(template.templateDisplayName),
    templateDisplayVersion: asString(template.templateDisplayVersion),
    isAssigned: typeof policy.isAssigned === 'boolean' ? policy.isAssigned : null,
    assignments: Array.isArray(policy.assignments)
      ? policy.assignments.map((assignment) => ({ targetType: odataType(assignment?.target), source: asString(assignment?.source) }))
      : null,
    technologies: asString(policy.technologies) ?? '',
    platforms: asString(policy.platforms) ?? '',
    choices: relevantChoices(settings),
    values: settingValues(settings),
    lastModifiedDateTime: asString(policy.lastModifiedDateTime),
    settingCount: typeof policy.settingCount === 'number' ? policy.settingCount : null,
    settingsRead: settings.length,
    settingsPaged: typeof policy['settings@odata.nextLink'] !== 'string',
    settingsError: null,
    // Not a list of tag ids is not known, never Default (docs/finding-rules.md, "Viewer scope").
    roleScopeTagIds: scopeTagIdsOf(policy.roleScopeTagIds),
  };
}

/** The display names of the options of the ASR and firewall settings the policies set, by option id (`ChoiceValue.options`). */
export function optionNamesOf(records: Pick<SecurityPostureRecords, 'policies'>): Map<string, string> {
  const names = new Map<string, string>();
  for (const policy of records.policies) {
    for (const choice of policy.choices) for (const [itemId, name] of Object.entries(choice.options ?? {})) if (!names.has(itemId)) names.set(itemId, name);
  }
  return names;
}

/**
 * Whether the rules need a policy's settings read: not for an audit-only baseline (nothing of it
 * is judged on its settings) nor for a policy whose `settingCount` is 0 (there is nothing to read,
 * and nothing read is the whole of it). Without a count, the settings are read.
 */
export function needsSettings(policy: SecurityPolicy): boolean {
  return !isAuditOnly(policy) && policy.settingCount !== 0;
}

/** The list's query: its declared fields (reads.ts), and its assignments. */
export const POLICY_LIST_QUERY = {
  $select: selectOf(SECURITY_POLICIES_READ),
  $expand: 'assignments',
} as const;

// ---- settings kept between loads (docs/contract.md, "Kept between loads") ---------------------

/** The name the settings are kept under in the load's memory; its version changes when what is kept does. */
export const SETTINGS_MEMORY = 'policy-settings';
// Version 2 keeps every setting's normalised value too (`values`), for the setting conflicts report;
// version 3 the settings' display names (`settingNames`), so that a warm load does not read them again;
// version 4 values that split a group collection only where its definition allows one entry (src/core/policy-settings/setting-values.ts);
// version 5 each choice shown by its option's display name (`display`, `optionName`).
const SETTINGS_MEMORY_VERSION = 5;
/** A policy's kept settings are read again after a day, even when Graph reports no change. */
const SETTINGS_MEMORY_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * One policy's settings as a load read them, kept only when the read was whole: the choices the
 * rules read (never a setting's other values) and how many settings there were, against the
 * `lastModifiedDateTime` and `settingCount` the list showed then.
 */
interface KeptSettings {
  lastModifiedDateTime: string;
  settingCount: number | null;
  readAt: string;
  settingsRead: number;
  choices: ChoiceValue[];
  values: SettingValue[];
  settingNames: Record<string, string>;
}

interface KeptSettingsDocument {
  version: number;
  policies: Record<string, KeptSettings>;
}

async function recallSettings(memory: LoadMemory | undefined): Promise<Record<string, KeptSettings>> {
  const text = await memory?.read(SETTINGS_MEMORY);
  if (!text) return {};
  try {
    const document = JSON.parse(text) as KeptSettingsDocument;
    return document?.version === SETTINGS_MEMORY_VERSION && typeof document.policies === 'object' && document.policies !== null ? document.policies : {};
  } catch {
    // A torn or foreign text keeps nothing: every policy is read again.
    return {};
  }
}

/** The kept read of a policy if the list shows it unchanged since, and it is less than a day old. */
function keptRead(kept: KeptSettings | undefined, policy: SecurityPolicy, now: Date): SettingsRead | undefined {
  if (!kept || policy.lastModifiedDateTime === null) return undefined;
  const age = now.getTime() - Date.parse(kept.readAt);
  const unchanged = kept.lastModifiedDateTime === policy.lastModifiedDateTime && kept.settingCount === policy.settingCount;
  if (!unchanged || !(age >= 0 && age < SETTINGS_MEMORY_MAX_AGE_MS) || !Array.isArray(kept.choices) || !Array.isArray(kept.values) || typeof kept.settingsRead !== 'number')
    return undefined;
  const choices = kept.choices.filter(
    (choice) =>
      typeof choice?.settingDefinitionId === 'string' &&
      typeof choice.value === 'string' &&
      (choice.optionName === undefined || typeof choice.optionName === 'string') &&
      (choice.options === undefined || (typeof choice.options === 'object' && choice.options !== null && Object.values(choice.options).every((name) => typeof name === 'string'))),
  );
  const values = kept.values.filter(
    (value) =>
      typeof value?.settingDefinitionId === 'string' &&
      (value.value === null || typeof value.value === 'string') &&
      typeof value.display === 'string' &&
      typeof value.secret === 'boolean',
  );
  const names: Record<string, string> = {};
  if (typeof kept.settingNames === 'object' && kept.settingNames !== null) {
    for (const [id, name] of Object.entries(kept.settingNames)) if (typeof name === 'string') names[id] = name;
  }
  return { choices, values, settingNames: names, settingsRead: kept.settingsRead, settingsError: null };
}

/**
 * Every policy's settings: those the list shows unchanged from memory, the others from Graph; then
 * the whole reads of policies still listed are kept for the next load (a policy gone from the list
 * is forgotten with it).
 */
async function settingsOf(context: LoadContext, policies: SecurityPolicy[], signal: AbortSignal): Promise<SecurityPolicy[]> {
  const now = context.now?.() ?? new Date();
  const kept = await recallSettings(context.memory);
  const known = new Map<string, SettingsRead>();
  const toRead: SecurityPolicy[] = [];
  for (const policy of policies) {
    if (!needsSettings(policy)) continue;
    const remembered = keptRead(kept[policy.id], policy, now);
    if (remembered) known.set(policy.id, remembered);
    else toRead.push(policy);
  }
  context.onProgress?.('policy settings', known.size);
  const read = toRead.length > 0 ? await readPolicySettings(context.graph, toRead, signal) : new Map<string, SettingsRead>();
  context.onProgress?.('policy settings', known.size + read.size);

  if (context.memory) {
    const keep: Record<string, KeptSettings> = {};
    for (const policy of policies) {
      const fresh = read.get(policy.id);
      const entry = fresh ? { readAt: now.toISOString(), read: fresh } : known.has(policy.id) ? { readAt: kept[policy.id]!.readAt, read: known.get(policy.id)! } : undefined;
      if (!entry || entry.read.settingsError !== null || policy.lastModifiedDateTime === null) continue;
      keep[policy.id] = {
        lastModifiedDateTime: policy.lastModifiedDateTime,
        settingCount: policy.settingCount,
        readAt: entry.readAt,
        settingsRead: entry.read.settingsRead,
        choices: entry.read.choices,
        values: entry.read.values ?? [],
        settingNames: entry.read.settingNames ?? {},
      };
    }
    await context.memory.write(SETTINGS_MEMORY, JSON.stringify({ version: SETTINGS_MEMORY_VERSION, policies: keep } satisfies KeptSettingsDocument));
  }
  return policies.map((policy) => {
    const settings = read.get(policy.id) ?? known.get(policy.id);
    return settings ? { ...policy, ...settings, settingsPaged: true } : policy;
  });
}

function projectTemplate(template: Beta.DeviceManagementConfigurationPolicyTemplate): PolicyTemplate {
  return {
    id: template.id,
    baseId: template.baseId,
    version: template.version,
    displayName: template.displayName,
    displayVersion: template.displayVersion,
    lifecycleState: template.lifecycleState,
    templateFamily: template.templateFamily,
    technologies: template.technologies,
  };
}

/**
 * The baseline-family templates. Graph does not document `$filter` on this list (community tools
 * use it): a 400 to the filter reads the list whole and keeps the baselines here. Any other
 * failure leaves the baselines unchecked rather than failing the report.
 */
async function loadBaselineTemplates(context: LoadContext, signal: AbortSignal): Promise<PolicyTemplates> {
  const read = (query: Record<string, string>) =>
    readCollection<Beta.DeviceManagementConfigurationPolicyTemplate, PolicyTemplate>(
      context,
      'configurationPolicyTemplates',
      BASELINE_TEMPLATES_READ.path,
      { query, signal },
      projectTemplate,
    );
  try {
    const value = await readFilteredOrWhole(
      async (filter) => (filter === undefined ? (await read({})).filter((template) => template.templateFamily === 'baseline') : read({ $filter: filter })),
      "templateFamily eq 'baseline'",
      signal,
    );
    return { ok: true, value };
  } catch (error) {
    return { ok: false, reason: `the baseline templates could not be read: ${optionalReadFailure(error, signal)}` };
  }
}

export async function loadSecurityPosture(context: LoadContext): Promise<SecurityPostureRecords> {
  const [policies, intents, templates, policyTemplates] = await loadSideBySide<[SecurityPolicy[], Intent[], Template[], PolicyTemplates]>([
    async (signal) => {
      const policies = await readCollection<GraphPolicy, SecurityPolicy>(
        context,
        'configurationPolicies',
        SECURITY_POLICIES_READ.path,
        { query: POLICY_LIST_QUERY, signal },
        projectPolicy,
      );
      return settingsOf(context, policies, signal);
    },
    (signal) =>
      readCollection<Intent, Intent>(context, 'intents', INTENTS_READ.path, { signal }, (intent) => ({
        id: intent.id,
        displayName: intent.displayName,
        templateId: intent.templateId,
        isMigratingToConfigurationPolicy: intent.isMigratingToConfigurationPolicy,
        isAssigned: intent.isAssigned,
        lastModifiedDateTime: intent.lastModifiedDateTime,
        roleScopeTagIds: scopeTagIdsOf(intent.roleScopeTagIds),
      })),
    (signal) =>
      readCollection<Template, Template>(context, 'templates', TEMPLATES_READ.path, { signal }, (template) => ({
        id: template.id,
        displayName: template.displayName,
        templateType: template.templateType,
        templateSubtype: template.templateSubtype,
        platformType: template.platformType,
        versionInfo: template.versionInfo,
        publishedDateTime: template.publishedDateTime,
        isDeprecated: template.isDeprecated,
      })),
    (signal) => loadBaselineTemplates(context, signal),
  ]);
  // The audit log once the objects are known: its window starts at the oldest one's last change.
  // Read after the lists, as the story of a report that did not load is not worth its requests.
  const objects = [...policies.map((policy) => policy.lastModifiedDateTime), ...intents.map((intent) => intent.lastModifiedDateTime)];
  if (objects.length === 0) return { policies, intents, templates, policyTemplates };
  const auditLog = await readAuditLog(context, objects);
  return { policies, intents, templates, policyTemplates, auditLog };
}
