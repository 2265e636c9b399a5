/**
 * Report 3's Graph reads (settings catalog policies with their settings and assignments, a policy's
 * `/settings` again where the expansion came short, the baseline templates of the settings catalog,
 * and the intent-era baselines with their templates), kept to the fields `derive` reads.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { GraphError } from '../../graph/graph-error.js';
import { asString } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { isGraphId } from '../../graph/graph-id.js';
import { optionalReadFailure, rereadEach } from '../optional-read.js';
import type { OptionalRead } from '../optional-read.js';
import { loadSideBySide } from '../side-by-side.js';

/** A choice setting anywhere in a policy's settings tree: what the ASR and firewall rules read. */
export interface ChoiceValue {
  settingDefinitionId: string;
  value: string;
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
  /** Graph's `settingCount` ("Number of settings"), or null when it is not reported. */
  settingCount: number | null;
  /** How many top-level settings were read, from the expansion or from `/settings`. */
  settingsRead: number;
  /** Whether the settings read ran to its last page (no `nextLink` left unfollowed). */
  settingsPaged: boolean;
  /** Why the policy's `/settings` could not be read again, or null when it was not needed or succeeded. */
  settingsError: string | null;
}

export type Intent = Pick<Beta.DeviceManagementIntent, 'id' | 'displayName' | 'templateId' | 'isMigratingToConfigurationPolicy' | 'isAssigned'>;
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
}

export const ASR_RULES_SETTING = 'device_vendor_msft_policy_config_defender_attacksurfacereductionrules';
export const FIREWALL_SETTING = /^vendor_msft_firewall_mdmstore_(domain|private|public)profile_enablefirewall$/;

/** Every choice value in a settings tree that an ASR or firewall rule reads, however deep. */
export function relevantChoices(settings: unknown): ChoiceValue[] {
  const found: ChoiceValue[] = [];
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
    if (id && value && (id.startsWith(`${ASR_RULES_SETTING}_`) || FIREWALL_SETTING.test(id))) found.push({ settingDefinitionId: id, value });
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
    settingCount: typeof policy.settingCount === 'number' ? policy.settingCount : null,
    settingsRead: settings.length,
    settingsPaged: typeof policy['settings@odata.nextLink'] !== 'string',
    settingsError: null,
  };
}

/**
 * Whether the expanded settings must be read again from `/settings`: they carry a nextLink, or
 * their number differs from `settingCount`. Graph documents neither the page size of an
 * expansion nor what `settingCount` counts; a full `/settings` read is the one that can be
 * compared (docs/finding-rules.md, report 3, "Completeness").
 */
export function needsSettingsReread(policy: SecurityPolicy): boolean {
  return !policy.settingsPaged || (policy.settingCount !== null && policy.settingsRead !== policy.settingCount);
}

/** Reads a policy's `/settings` to the last page; a Graph failure is the policy's `settingsError`, not the report's. */
async function rereadSettings(graph: LoadContext['graph'], policy: SecurityPolicy, signal: AbortSignal): Promise<SecurityPolicy> {
  if (!isGraphId(policy.id)) return { ...policy, settingsError: `its id "${policy.id}" is not one Graph's settings path takes` };
  const settings: unknown[] = [];
  try {
    for await (const page of graph.pages<unknown>(`/beta/deviceManagement/configurationPolicies/${policy.id}/settings`, { signal })) settings.push(...page.items);
  } catch (error) {
    return { ...policy, settingsError: `reading its settings failed: ${optionalReadFailure(error, signal)}` };
  }
  return { ...policy, choices: relevantChoices(settings), settingsRead: settings.length, settingsPaged: true, settingsError: null };
}

async function rereadAll(graph: LoadContext['graph'], policies: SecurityPolicy[], signal: AbortSignal): Promise<void> {
  const indexes = policies.flatMap((policy, index) => (needsSettingsReread(policy) ? [index] : []));
  const reread = await rereadEach(indexes, (index) => rereadSettings(graph, policies[index]!, signal));
  indexes.forEach((index, position) => (policies[index] = reread[position]!));
}

const BASELINE_TEMPLATES_PATH = '/beta/deviceManagement/configurationPolicyTemplates';

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
      BASELINE_TEMPLATES_PATH,
      { query, signal },
      projectTemplate,
    );
  try {
    try {
      return { ok: true, value: await read({ $filter: "templateFamily eq 'baseline'" }) };
    } catch (error) {
      if (signal.aborted || !(error instanceof GraphError) || error.status !== 400) throw error;
      return { ok: true, value: (await read({})).filter((template) => template.templateFamily === 'baseline') };
    }
  } catch (error) {
    return { ok: false, reason: `the baseline templates could not be read: ${optionalReadFailure(error, signal)}` };
  }
}

export async function loadSecurityPosture(context: LoadContext): Promise<SecurityPostureRecords> {
  const { graph } = context;
  const progress = (source: string, records: number) => context.onProgress?.(source, records);
  const [policies, intents, templates, policyTemplates] = await loadSideBySide<[SecurityPolicy[], Intent[], Template[], PolicyTemplates]>([
    async (signal) => {
      const policies: SecurityPolicy[] = [];
      const pages = graph.pages<GraphPolicy>('/beta/deviceManagement/configurationPolicies', {
        query: { $expand: 'settings,assignments' },
        signal,
      });
      for await (const page of pages) {
        for (const policy of page.items) policies.push(projectPolicy(policy));
        progress('configurationPolicies', policies.length);
      }
      await rereadAll(graph, policies, signal);
      return policies;
    },
    (signal) =>
      readCollection<Intent, Intent>(context, 'intents', '/beta/deviceManagement/intents', { signal }, (intent) => ({
        id: intent.id,
        displayName: intent.displayName,
        templateId: intent.templateId,
        isMigratingToConfigurationPolicy: intent.isMigratingToConfigurationPolicy,
        isAssigned: intent.isAssigned,
      })),
    (signal) =>
      readCollection<Template, Template>(context, 'templates', '/beta/deviceManagement/templates', { signal }, (template) => ({
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
  return { policies, intents, templates, policyTemplates };
}
