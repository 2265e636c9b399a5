/**
 * A settings catalog policy's settings, read once and given in the forms each reader judges: every
 * setting's value normalised (setting-values.ts; report 7 and "what applies" compare them), the
 * settings' display names, and the attack surface reduction and firewall choices report 3's rules
 * read. Report 3 reads every policy's this way; "what applies" reads only those of the few policies
 * that may reach one device (src/core/applies/settings-read.ts).
 */

import { GraphError } from '../graph/graph-error.js';
import { asString } from '../reports/graph-values.js';
import type { LoadContext } from '../reports/report-model.js';
import { isGraphId } from '../graph/graph-id.js';
import { itemsOfBatchAnswer, optionalReadFailure, rereadEach } from '../reports/optional-read.js';
import { pathFor, pathInBatch } from '../graph/upstream-read.js';
import { optionNameOf, optionNames, settingValues } from './setting-values.js';
import type { SettingValue } from './setting-values.js';
import { POLICY_SETTINGS_READ } from './reads.js';

/** A choice setting anywhere in a policy's settings tree: what the ASR and firewall rules read. */
export interface ChoiceValue {
  settingDefinitionId: string;
  value: string;
  /** The option's display name, from its definition expanded with the settings (setting-values.ts, `optionNames`); absent where none came. */
  optionName?: string;
  /** Every option of its setting's definition, by option id: what names a value a finding's story shows it changed from (audit-story.ts). */
  options?: Record<string, string>;
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

/** STIG audit baselines (`technologies` has `extensibility`) audit and enforce nothing (learn.microsoft.com/intune/device-security/security-baselines/stig-audit-baseline). */
export function isAuditOnly(policy: { technologies: string }): boolean {
  return policy.technologies.split(',').some((technology) => technology.trim() === 'extensibility');
}

/**
 * The settings a load read for one policy, or why it could not: what `memory` keeps between loads.
 * A read through `/settings` always follows its nextLinks, so a policy given one is `settingsPaged`.
 */
export interface SettingsRead {
  /** Only the attack surface reduction and firewall choices (`relevantChoices`). */
  choices: ChoiceValue[];
  /** Every setting it sets, normalised, a secret only as "set" (setting-values.ts). */
  values?: SettingValue[];
  /** The display names of the settings in `values`, by `settingDefinitionId` (`settingNames`). */
  settingNames?: Record<string, string>;
  /** Every option's display name of the settings' definitions, by option id (`optionNames`): only where asked for (the change feed names values by them). */
  optionNames?: Record<string, string>;
  /** How many top-level settings were read. */
  settingsRead: number;
  /** Why the settings could not be read, in a sentence, or null when they were. */
  settingsError: string | null;
  /** Where its read failed, Graph's answer alone ("Graph answered 403"), which `settingsError` says in a sentence. */
  readFailure?: string;
}

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

/** What one policy's settings give: its choices, values and the names of its settings (and of all their options, where asked for). */
function readOf(settings: readonly unknown[], withOptions: boolean): Omit<SettingsRead, 'settingsError'> {
  const values = settingValues(settings);
  return {
    choices: relevantChoices(settings),
    values,
    settingNames: settingNames(settings, values),
    ...(withOptions ? { optionNames: Object.fromEntries(optionNames(settings)) } : {}),
    settingsRead: settings.length,
  };
}

/**
 * Each policy's `/settings` through `POST /beta/$batch`, 20 to a call (the client runs several calls
 * at once, paced under Intune's limit), each answer's nextLink followed to the collection's end. A
 * policy whose read fails carries the failure as its `settingsError`, not the report. "What applies"
 * reads the settings of the few policies that reach one device this way too (src/core/applies/settings-read.ts).
 */
export async function readPolicySettings(
  graph: LoadContext['graph'],
  policies: readonly { id: string }[],
  signal: AbortSignal,
  options: { optionNames?: boolean } = {},
): Promise<Map<string, SettingsRead>> {
  const withOptions = options.optionNames === true;
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
    if (!read.ok) return reads.set(policy.id, { ...failed(read.error), ...readOf(read.items, withOptions) });
    return reads.set(policy.id, { ...readOf(read.items, withOptions), settingsError: null });
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
