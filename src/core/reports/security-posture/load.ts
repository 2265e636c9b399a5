/**
 * Report 3's Graph reads, kept to the fields `derive` reads: the settings catalog policies with
 * their assignments, each policy's `/settings` through `$batch` (or from what the last load kept,
 * when the policy has not changed since), the baseline templates of the settings catalog, and the
 * intent-era baselines with their templates.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { GraphError } from '../../graph/graph-error.js';
import { readFilteredOrWhole } from '../../graph/filtered-read.js';
import { asString } from '../graph-values.js';
import type { LoadContext, LoadMemory } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { isGraphId } from '../../graph/graph-id.js';
import { itemsOfBatchAnswer, optionalReadFailure, rereadEach } from '../optional-read.js';
import type { OptionalRead } from '../optional-read.js';
import { loadSideBySide } from '../side-by-side.js';
import { pathFor, pathInBatch, selectOf } from '../../graph/upstream-read.js';
import { BASELINE_TEMPLATES_READ, INTENTS_READ, POLICY_SETTINGS_READ, SECURITY_POLICIES_READ, TEMPLATES_READ } from './reads.js';
import { readAuditLog } from '../../audit-story/read-audit-log.js';
import type { AuditLog } from '../../audit-story/audit-story.js';
import { optionNameOf, optionNames, settingValues } from '../setting-conflicts/setting-values.js';
import type { SettingValue } from '../setting-conflicts/setting-values.js';
import { scopeTagIdsOf } from '../../viewer-scope/scope.js';

/** A choice setting anywhere in a policy's settings tree: what the ASR and firewall rules read. */
export interface ChoiceValue {
  settingDefinitionId: string;
  value: string;
  /** The option's display name, from its definition expanded with the settings (setting-values.ts, `optionNames`); absent where none came. */
  optionName?: string;
  /** Every option of its setting's definition, by option id: what names a value a finding's story shows it changed from (audit-story.ts). */
  options?: Record<string, string>;
}

/** One of a policy's assignments, kept to what decides whether it reaches anyone. */
export interface PolicyAssignment {
  /** The target's `@odata.type` without the namespace (`groupAssignmentTarget`), or null when Graph sent none. */
  targetType: string | null;
  /** `direct` or `policySets` (deviceAndAppManagementAssignmentSource); null when absent. */
  source: string | null;
}

export interface SecurityPolicy {
  id: string;
  name: string;
  templateFamily: string;
  templateId: string;
  templateDisplayName: string | null;
  templateDisplayVersion: string | null;
  /** Graph's read-only `isAssigned`, or null when the payload left it out. */
  isAssigned: boolean | null;
  /** The expanded `assignments`, or null when the payload left them out. */
  assignments: PolicyAssignment[] | null;
  technologies: string;
  platforms: string;
  /** Only the ASR and firewall choices; other settings are dropped as the page arrives. */
  choices: ChoiceValue[];
  /**
   * Every setting it sets, normalised, a secret only as "set" (setting-values.ts): not read by this
   * report's rules, but kept for the setting conflicts report, which shares this load. Absent where
   * the settings were not read.
   */
  values?: SettingValue[];
  /**
   * The display names of the settings in `values`, by `settingDefinitionId`, from the definitions
   * Graph expanded with the settings (`settingNames`): a setting without one is named by its id.
   * Absent where the settings were not read.
   */
  settingNames?: Record<string, string>;
  /** When the policy last changed (Graph's `lastModifiedDateTime`), or null: what decides whether its kept settings still hold. */
  lastModifiedDateTime: string | null;
  /** Graph's `settingCount` ("Number of settings"), or null when it is not reported. */
  settingCount: number | null;
  /** How many top-level settings were read, from the expansion or from `/settings`. */
  settingsRead: number;
  /** Whether the settings read ran to its last page (no `nextLink` left unfollowed). */
  settingsPaged: boolean;
  /** Why the policy's `/settings` could not be read again, or null when it was not needed or succeeded. */
  settingsError: string | null;
  /** The policy's scope tags (`roleScopeTagIds`), or null when Graph sent none: what the viewer scope filters its rows by. */
  roleScopeTagIds?: string[] | null;
}

export type Intent = Pick<
  Beta.DeviceManagementIntent,
  'id' | 'displayName' | 'templateId' | 'isMigratingToConfigurationPolicy' | 'isAssigned' | 'lastModifiedDateTime' | 'roleScopeTagIds'
>;
export type Template = Pick<
  Beta.DeviceManagementTemplate,
  'id' | 'displayName' | 'templateType' | 'templateSubtype' | 'platformType' | 'versionInfo' | 'publishedDateTime' | 'isDeprecated'
>;

/** A settings catalog template of the baseline family (deviceManagementConfigurationPolicyTemplate, beta). */
export type PolicyTemplate = Pick<
  Beta.DeviceManagementConfigurationPolicyTemplate,
  'id' | 'baseId' | 'version' | 'displayName' | 'displayVersion' | 'lifecycleState' | 'templateFamily' | 'technologies'
>;

/** The baseline templates, or why they could not be read: a failed read is "could not check", never "current". */
/** The baseline templates, or why they could not be read. */
export type PolicyTemplates = OptionalRead<PolicyTemplate[]>;

export interface SecurityPostureRecords {
  policies: SecurityPolicy[];
  intents: Intent[];
  templates: Template[];
  policyTemplates: PolicyTemplates;
  /** Intune's audit log since the oldest policy's or baseline's last change, for the findings' stories; absent when none was read. */
  auditLog?: AuditLog;
}

/** The longest display name kept; a definition's name is a few words. */
const NAME_MAX = 200;

export const ASR_RULES_SETTING = 'device_vendor_msft_policy_config_defender_attacksurfacereductionrules';
export const FIREWALL_SETTING = /^vendor_msft_firewall_mdmstore_(domain|private|public)profile_enablefirewall$/;

/** Every choice value in a settings tree that an ASR or firewall rule reads, however deep. */
export function relevantChoices(settings: unknown): ChoiceValue[] {
  const found: ChoiceValue[] = [];
  const options = optionNames(settings);
  const visit = (node: unknown, depth: number) => {
    if (depth > 32 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) {
      for (const child of node) visit(child, depth + 1);
      return;
    }
    const record = node as Record<string, unknown>;
    const id = asString(record.settingDefinitionId);
    const choice = record.choiceSettingValue as { value?: unknown } | undefined;
    const value = asString(choice?.value);
    if (id && value && (id.startsWith(`${ASR_RULES_SETTING}_`) || FIREWALL_SETTING.test(id))) {
      const optionName = optionNameOf(options, value);
      const all = Object.fromEntries([...options].filter(([itemId]) => itemId.startsWith(`${id}_`)).map(([itemId, name]) => [itemId, name.slice(0, NAME_MAX)]));
      found.push({
        settingDefinitionId: id,
        value,
        ...(optionName ? { optionName: optionName.slice(0, NAME_MAX) } : {}),
        ...(Object.keys(all).length > 0 ? { options: all } : {}),
      });
    }
    for (const [key, child] of Object.entries(record)) {
      if (key === 'settingInstance' || key === 'choiceSettingValue' || key === 'children' || key === 'groupSettingCollectionValue' || key === 'groupSettingValue')
        visit(child, depth + 1);
    }
  };
  visit(settings, 0);
  return found;
}

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

/** STIG audit baselines (`technologies` has `extensibility`) audit and enforce nothing (learn.microsoft.com/intune/device-security/security-baselines/stig-audit-baseline). */
export function isAuditOnly(policy: Pick<SecurityPolicy, 'technologies'>): boolean {
  return policy.technologies.split(',').some((technology) => technology.trim() === 'extensibility');
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

/**
 * The settings a load read for one policy, or why it could not: what `memory` keeps between loads.
 * A read through `/settings` always follows its nextLinks, so a policy given one is `settingsPaged`.
 */
export type SettingsRead = Pick<SecurityPolicy, 'choices' | 'values' | 'settingNames' | 'settingsRead' | 'settingsError'> & {
  /** Where its read failed, Graph's answer alone ("Graph answered 403"), which `settingsError` says in a sentence. */
  readFailure?: string;
};

/**
 * Each setting with its definitions: `settingDefinitions` is a navigation property of
 * deviceManagementConfigurationSetting, "List of related Setting Definitions"
 * (learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsetting?view=graph-rest-beta),
 * so one read gives what a setting is called without a read per definition. Maester's BitLocker
 * test and Microsoft365DSC read a policy's settings the same way. The nextLink Graph gives carries
 * the query on.
 */
const SETTINGS_QUERY = { $expand: 'settingDefinitions' } as const;

const settingsPath = (policy: { id: string }) => `${pathInBatch(POLICY_SETTINGS_READ, policy.id)}?$expand=${SETTINGS_QUERY.$expand}`;

/**
 * The display names of the settings a policy sets, from the definitions expanded with them: only
 * for the ids in `values`, each definition's `displayName` as Graph gave it. A setting whose
 * definition did not come has none here, never one made up.
 */
export function settingNames(settings: readonly unknown[], values: readonly SettingValue[]): Record<string, string> {
  const wanted = new Set(values.map((value) => value.settingDefinitionId));
  const names: Record<string, string> = {};
  for (const setting of settings) {
    const definitions = typeof setting === 'object' && setting !== null ? (setting as Record<string, unknown>).settingDefinitions : undefined;
    if (!Array.isArray(definitions)) continue;
    for (const definition of definitions) {
      if (typeof definition !== 'object' || definition === null) continue;
      const id = asString((definition as Record<string, unknown>).id);
      const name = asString((definition as Record<string, unknown>).displayName)?.trim();
      if (id && name && wanted.has(id) && !Object.hasOwn(names, id)) names[id] = name.slice(0, NAME_MAX);
    }
  }
  return names;
}

/** What one policy's settings give: its choices, values and the names of its settings. */
function readOf(settings: readonly unknown[]): Omit<SettingsRead, 'settingsError'> {
  const values = settingValues(settings);
  return { choices: relevantChoices(settings), values, settingNames: settingNames(settings, values), settingsRead: settings.length };
}

/**
 * Each policy's `/settings` through `POST /beta/$batch`, 20 to a call (the client runs several calls
 * at once, paced under Intune's limit), each answer's nextLink followed to the collection's end. A
 * policy whose read fails carries the failure as its `settingsError`, not the report. "What applies"
 * reads the settings of the few policies that reach one device this way too (src/core/applies/settings-read.ts).
 */
export async function readPolicySettings(graph: LoadContext['graph'], policies: readonly { id: string }[], signal: AbortSignal): Promise<Map<string, SettingsRead>> {
  const reads = new Map<string, SettingsRead>();
  const readable: { id: string }[] = [];
  for (const policy of policies) {
    if (isGraphId(policy.id)) readable.push(policy);
    else reads.set(policy.id, { choices: [], values: [], settingsRead: 0, settingsError: `its id "${policy.id}" is not one Graph's settings path takes` });
  }
  // Sub-requests are named by position: a list that names a policy twice must not make two the same.
  const outcomes = await graph.batchGet(
    readable.map((policy, index) => ({ id: String(index), url: settingsPath(policy) })),
    { signal, version: 'beta' },
  );
  const failed = (error: unknown): SettingsRead => {
    const why = optionalReadFailure(error, signal);
    return { choices: [], values: [], settingsRead: 0, settingsError: `reading its settings failed: ${why}`, readFailure: why };
  };
  await rereadEach([...readable.entries()], async ([index, policy]) => {
    const outcome = outcomes.get(String(index));
    if (!outcome) throw new Error(`the $batch read answered nothing for the settings of ${policy.id}`);
    if (!outcome.ok) return reads.set(policy.id, failed(outcome.error));
    const read = await itemsOfBatchAnswer<unknown>(graph, outcome.body, pathFor(POLICY_SETTINGS_READ, policy.id), signal);
    if (!read) return reads.set(policy.id, failed(malformedSettings(policy)));
    // What was read is shown beside the failure, not judged (docs/finding-rules.md, report 3, "Completeness").
    if (!read.ok) return reads.set(policy.id, { ...failed(read.error), ...readOf(read.items) });
    return reads.set(policy.id, { ...readOf(read.items), settingsError: null });
  });
  return reads;
}

function malformedSettings(policy: { id: string }): GraphError {
  return new GraphError({
    kind: 'malformed-response',
    message: 'the settings page has no "value" array',
    method: 'GET',
    path: pathFor(POLICY_SETTINGS_READ, policy.id),
    attempts: 1,
  });
}

// ---- settings kept between loads (docs/contract.md, "Kept between loads") ---------------------

/** The name the settings are kept under in the load's memory; its version changes when what is kept does. */
export const SETTINGS_MEMORY = 'policy-settings';
// Version 2 keeps every setting's normalised value too (`values`), for the setting conflicts report;
// version 3 the settings' display names (`settingNames`), so that a warm load does not read them again;
// version 4 values that split a group collection only where its definition allows one entry (setting-values.ts);
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
