/**
 * What a settings catalog or endpoint security policy sets, one value per setting, as a policy's
 * `/settings` returns them (deviceManagementConfigurationSetting, Graph beta,
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsettinginstance?view=graph-rest-beta).
 * Values are normalised so that two policies are compared by what they set, not by how Graph
 * spelled it (docs/finding-rules.md, "Setting conflicts", "Values are compared normalised"). A
 * secret value is never kept: only that it is set.
 */

import { asString } from '../reports/graph-values.js';

/** One setting a policy sets. */
export interface SettingValue {
  settingDefinitionId: string;
  /** The normalised value two policies are compared by; null for a secret, which is never kept. */
  value: string | null;
  /**
   * The value as a person reads it: a choice as its option's display name where the definition was
   * read (else its option id without the setting's prefix), an integer or a text as set, a long text
   * cut short; "(secret, set)" for a secret.
   */
  display: string;
  secret: boolean;
}

/** The longest value shown; the whole normalised value is still what is compared. */
const DISPLAY_MAX = 160;
/** Deeper than any settings catalog tree: a payload past it is cut rather than followed without end. */
const MAX_DEPTH = 32;

export const SECRET_DISPLAY = '(secret, set)';

/**
 * Longer values are kept as their length and two 32-bit hashes rather than whole: report 3 keeps
 * every policy's values between loads, and a custom XML or script setting can be large. Two values
 * that differ and still share length and both hashes are not a practical case (a chance near 2^-64).
 */
const KEEP_WHOLE_MAX = 256;

function fnv1a(text: string, seed: number): string {
  let hash = seed >>> 0;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** The value two policies are compared by: whole when short, else its length and hashes. */
function compact(value: string | null): string | null {
  if (value === null || value.length <= KEEP_WHOLE_MAX) return value;
  return `#${value.length}:${fnv1a(value, 0x811c9dc5)}${fnv1a(value, 0x01000193)}`;
}

type Instance = Record<string, unknown>;

function odataType(node: Instance): string {
  return (asString(node['@odata.type']) ?? '').replace(/^#?microsoft\.graph\./, '').toLowerCase();
}

function records(value: unknown): Instance[] {
  return Array.isArray(value) ? value.filter((item): item is Instance => typeof item === 'object' && item !== null) : [];
}

/** A simple value (`deviceManagementConfigurationStringSettingValue`, `…IntegerSettingValue`, `…SecretSettingValue`, `…ReferenceSettingValue`). */
function simpleValue(value: unknown): { value: string | null; secret: boolean } {
  if (typeof value !== 'object' || value === null) return { value: null, secret: false };
  const record = value as Instance;
  // A secret's value is encrypted or masked by Graph; it is never read here, whatever came.
  if (odataType(record).includes('secretsettingvalue')) return { value: null, secret: true };
  const raw = record.value;
  if (typeof raw === 'number') return { value: String(raw), secret: false };
  if (typeof raw === 'string') return { value: raw.trim(), secret: false };
  if (typeof raw === 'boolean') return { value: String(raw), secret: false };
  return { value: '', secret: false };
}

function cut(text: string): string {
  return text.length > DISPLAY_MAX ? `${text.slice(0, DISPLAY_MAX - 1)}…` : text;
}

function display(settingDefinitionId: string, value: string | null, secret: boolean): string {
  if (secret) return SECRET_DISPLAY;
  const text = (value ?? '').startsWith(`${settingDefinitionId}_`) ? value!.slice(settingDefinitionId.length + 1) : (value ?? '');
  return cut(text);
}

/** A choice value's option name among `options` (`optionNames`), the value as sent or lower case; undefined where no definition named it. */
export function optionNameOf(options: ReadonlyMap<string, string>, value: string): string | undefined {
  return options.get(value) ?? options.get(value.toLowerCase());
}

/**
 * A choice as the Intune admin center shows it: its option's `displayName`, found by the option's
 * `itemId`, which is what a choice setting value holds (`optionNames`); else the option id without
 * its setting's prefix, never a name made up.
 */
function optionDisplay(settingDefinitionId: string, value: string, options: ReadonlyMap<string, string>): string {
  const name = optionNameOf(options, value);
  return name ? cut(name) : display(settingDefinitionId, value, false);
}

/** A choice collection's options, in order, each by its display name where its definition was read. */
function choiceDisplay(settingDefinitionId: string, values: readonly string[], options: ReadonlyMap<string, string>): string {
  return values.map((value) => optionDisplay(settingDefinitionId, value, options)).join(', ');
}

interface Walk {
  out: SettingValue[];
  /** Whether a secret was met in the subtree just canonicalised. */
  secret: boolean;
  /** The group collections whose definition allows one entry only (`singleEntryCollections`): one group, its children compared one by one. */
  single: ReadonlySet<string>;
  /** The display names of the choices' options, by option id (`optionNames`). */
  options: ReadonlyMap<string, string>;
}

/**
 * A subtree as one text: each leaf `id=value` in the order Graph sent them, a secret as `id=<secret>`
 * (so a whole group with a secret in it is itself secret and not compared).
 */
function canonical(instance: Instance, depth: number, walk: Walk): string {
  if (depth > MAX_DEPTH) return '';
  const id = asString(instance.settingDefinitionId) ?? '';
  const type = odataType(instance);
  const children = (list: Instance[]) => list.map((child) => canonical(child, depth + 1, walk)).join(';');
  if (type.endsWith('choicesettinginstance')) {
    const choice = (instance.choiceSettingValue ?? {}) as Instance;
    return `${id}=${asString(choice.value) ?? ''}{${children(records(choice.children))}}`;
  }
  if (type.endsWith('choicesettingcollectioninstance')) {
    return `${id}=[${records(instance.choiceSettingCollectionValue)
      .map((item) => `${asString(item.value) ?? ''}{${children(records(item.children))}}`)
      .join(',')}]`;
  }
  if (type.endsWith('simplesettinginstance')) {
    const simple = simpleValue(instance.simpleSettingValue);
    if (simple.secret) walk.secret = true;
    return `${id}=${simple.secret ? '<secret>' : simple.value}`;
  }
  if (type.endsWith('simplesettingcollectioninstance')) {
    const items = records(instance.simpleSettingCollectionValue).map(simpleValue);
    if (items.some((item) => item.secret)) walk.secret = true;
    return `${id}=[${items.map((item) => (item.secret ? '<secret>' : item.value)).join(',')}]`;
  }
  if (type.endsWith('groupsettinginstance')) return `${id}={${children(records((instance.groupSettingValue as Instance | undefined)?.children))}}`;
  if (type.endsWith('groupsettingcollectioninstance')) {
    return `${id}=[${records(instance.groupSettingCollectionValue)
      .map((item) => `{${children(records(item.children))}}`)
      .join(',')}]`;
  }
  return `${id}=?`;
}

function emit(walk: Walk, settingDefinitionId: string, value: string | null, secret: boolean, shown?: string): void {
  if (!settingDefinitionId) return;
  walk.out.push({ settingDefinitionId, value: secret ? null : compact(value), display: shown ?? display(settingDefinitionId, value, secret), secret });
}

/**
 * One setting instance and what it holds. A choice is its option id, and its children are settings
 * of their own. A group's children are settings of their own, and so are those of a group collection
 * whose definition allows one entry only (`maximumCount` 1: the ASR rules, a BitLocker or LAPS
 * group), each compared on its own. Any other group collection is a list (of firewall rules, of
 * device IDs), one value compared whole, as Intune delivers it whole, however many entries it holds
 * now: two policies with one different rule each set two rules, not two values of one rule's
 * children. Where the definition was not read, nothing proves the collection is one group, so it is
 * a list too (docs/finding-rules.md, "Setting conflicts", "Values are compared normalised").
 */
function visit(instance: Instance, depth: number, walk: Walk): void {
  if (depth > MAX_DEPTH) return;
  const id = asString(instance.settingDefinitionId) ?? '';
  const type = odataType(instance);
  if (type.endsWith('choicesettinginstance')) {
    const choice = (instance.choiceSettingValue ?? {}) as Instance;
    const value = asString(choice.value) ?? '';
    emit(walk, id, value, false, optionDisplay(id, value, walk.options));
    for (const child of records(choice.children)) visit(child, depth + 1, walk);
    return;
  }
  if (type.endsWith('choicesettingcollectioninstance')) {
    const inner: Walk = { ...walk, out: [], secret: false };
    const values = records(instance.choiceSettingCollectionValue).map((item) => asString(item.value) ?? '');
    const text = canonical(instance, depth, inner);
    emit(walk, id, inner.secret ? null : text, inner.secret, inner.secret ? undefined : choiceDisplay(id, values, walk.options));
    return;
  }
  if (type.endsWith('simplesettinginstance')) {
    const simple = simpleValue(instance.simpleSettingValue);
    emit(walk, id, simple.value, simple.secret);
    return;
  }
  if (type.endsWith('simplesettingcollectioninstance')) {
    const items = records(instance.simpleSettingCollectionValue).map(simpleValue);
    const secret = items.some((item) => item.secret);
    const value = items.map((item) => item.value).join('\n');
    emit(walk, id, value, secret, secret ? undefined : display(id, items.map((item) => item.value).join(', '), false));
    return;
  }
  if (type.endsWith('groupsettinginstance')) {
    for (const child of records((instance.groupSettingValue as Instance | undefined)?.children)) visit(child, depth + 1, walk);
    return;
  }
  if (type.endsWith('groupsettingcollectioninstance')) {
    const entries = records(instance.groupSettingCollectionValue);
    if (entries.length === 1 && walk.single.has(id.toLowerCase())) {
      for (const child of records(entries[0]!.children)) visit(child, depth + 1, walk);
      return;
    }
    const inner: Walk = { ...walk, out: [], secret: false };
    const text = canonical(instance, depth, inner);
    emit(walk, id, text, inner.secret, inner.secret ? undefined : entries.length === 1 ? '1 entry' : `${entries.length} entries`);
  }
  // An instance type not listed above is not compared: a value it does not know is not a value.
}

/**
 * The group collections whose definition allows one entry only, by lower-case id: the definitions a
 * setting's `settingDefinitions` holds when read with `$expand=settingDefinitions` (its own and its
 * children's), a `deviceManagementConfigurationSettingGroupCollectionDefinition` carrying
 * `maximumCount` and `minimumCount`
 * (learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationsettinggroupcollectiondefinition?view=graph-rest-beta).
 * Microsoft365DSC decides the same way whether a group collection is a collection, by its
 * definition's `maximumCount` being above 1, never by how many entries a policy holds
 * (docs/finding-rules.md, "Setting conflicts", cites where).
 */
export function singleEntryCollections(settings: unknown): Set<string> {
  const single = new Set<string>();
  for (const setting of records(settings)) {
    for (const definition of records(setting.settingDefinitions)) {
      const id = asString(definition.id);
      if (id && odataType(definition).endsWith('settinggroupcollectiondefinition') && definition.maximumCount === 1) single.add(id.toLowerCase());
    }
  }
  return single;
}

/**
 * The display names of the options of the choice settings whose definitions were expanded with the
 * settings, by option id: a `deviceManagementConfigurationChoiceSettingDefinition` carries
 * `options`, each a `deviceManagementConfigurationOptionDefinition` with its `itemId` ("Identifier
 * of option", the value a choice setting instance holds) and `displayName` ("Friendly name of the
 * option")
 * (learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationchoicesettingdefinition?view=graph-rest-beta,
 * learn.microsoft.com/graph/api/resources/intune-deviceconfigv2-devicemanagementconfigurationoptiondefinition?view=graph-rest-beta).
 * IntuneManagement's documentation names a choice the same way, by the option whose `itemId` is the
 * value (Extensions/Documentation.psm1: `($settingsDef.Options | Where itemId -eq $rawValue).displayName`). Keyed by the id as Graph spelled it and by its lower case, as a value may differ in
 * case from its option's id.
 */
export function optionNames(settings: unknown): Map<string, string> {
  const names = new Map<string, string>();
  for (const setting of records(settings)) {
    for (const definition of records(setting.settingDefinitions)) {
      for (const option of records(definition.options)) {
        const itemId = asString(option.itemId);
        const name = asString(option.displayName)?.trim();
        if (!itemId || !name) continue;
        if (!names.has(itemId)) names.set(itemId, name);
        if (!names.has(itemId.toLowerCase())) names.set(itemId.toLowerCase(), name);
      }
    }
  }
  return names;
}

/**
 * Every setting a policy's settings set, from `/settings`' `value` array (each item's
 * `settingInstance`, and its `settingDefinitions` where they were expanded, which say whether a
 * group collection is one group or a list, and name each choice's option).
 */
export function settingValues(settings: unknown): SettingValue[] {
  const walk: Walk = { out: [], secret: false, single: singleEntryCollections(settings), options: optionNames(settings) };
  for (const setting of records(settings)) {
    const instance = setting.settingInstance;
    if (typeof instance === 'object' && instance !== null) visit(instance as Instance, 0, walk);
  }
  return walk.out;
}

/**
 * Said once for the table, never row by row: how many settings are shown by their settings catalog
 * id and their choices by option id, because Graph sent no definition for them with the policies'
 * settings (`$expand=settingDefinitions`; a definition is never made up).
 */
export function unnamedNotice(count: number): string | null {
  if (count === 0) return null;
  return `${count === 1 ? '1 setting is' : `${count} settings are`} shown by ${count === 1 ? 'its' : 'their'} settings catalog id, and ${count === 1 ? 'its' : 'their'} choices by option id: Graph sent no definition for ${count === 1 ? 'it' : 'them'} with the policies' settings.`;
}
