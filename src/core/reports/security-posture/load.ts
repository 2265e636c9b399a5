/** Report 3's Graph reads (settings catalog policies with their settings, and the intent-era baselines with their templates), kept to the fields `derive` reads. */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asString } from '../graph-values.js';
import type { LoadContext } from '../report-model.js';
import { readCollection } from '../read-collection.js';
import { loadSideBySide } from '../side-by-side.js';

/** A choice setting anywhere in a policy's settings tree: what the ASR and firewall rules read. */
export interface ChoiceValue {
  settingDefinitionId: string;
  value: string;
}

export interface SecurityPolicy {
  id: string;
  name: string;
  templateFamily: string;
  templateId: string;
  templateDisplayName: string | null;
  templateDisplayVersion: string | null;
  isAssigned: boolean;
  technologies: string;
  platforms: string;
  /** Only the ASR and firewall choices; other settings are dropped as the page arrives. */
  choices: ChoiceValue[];
}

export type Intent = Pick<Beta.DeviceManagementIntent, 'id' | 'displayName' | 'templateId' | 'isMigratingToConfigurationPolicy'>;
export type Template = Pick<
  Beta.DeviceManagementTemplate,
  'id' | 'displayName' | 'templateType' | 'templateSubtype' | 'platformType' | 'versionInfo' | 'publishedDateTime' | 'isDeprecated'
>;

export interface SecurityPostureRecords {
  policies: SecurityPolicy[];
  intents: Intent[];
  templates: Template[];
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

export async function loadSecurityPosture(context: LoadContext): Promise<SecurityPostureRecords> {
  const { graph } = context;
  const progress = (source: string, records: number) => context.onProgress?.(source, records);
  const [policies, intents, templates] = await loadSideBySide<[SecurityPolicy[], Intent[], Template[]]>([
    async (signal) => {
      const policies: SecurityPolicy[] = [];
      const pages = graph.pages<Beta.DeviceManagementConfigurationPolicy & { settings?: unknown }>('/beta/deviceManagement/configurationPolicies', {
        query: { $expand: 'settings,assignments' },
        signal,
      });
      for await (const page of pages) {
        for (const policy of page.items) {
          const template = policy.templateReference ?? {};
          policies.push({
            id: String(policy.id),
            name: policy.name ?? String(policy.id),
            templateFamily: asString(template.templateFamily) ?? 'none',
            templateId: asString(template.templateId) ?? '',
            templateDisplayName: asString(template.templateDisplayName),
            templateDisplayVersion: asString(template.templateDisplayVersion),
            isAssigned: policy.isAssigned === true || (Array.isArray(policy.assignments) && policy.assignments.length > 0),
            technologies: asString(policy.technologies) ?? '',
            platforms: asString(policy.platforms) ?? '',
            choices: relevantChoices(policy.settings),
          });
        }
        progress('configurationPolicies', policies.length);
      }
      return policies;
    },
    (signal) =>
      readCollection<Intent, Intent>(context, 'intents', '/beta/deviceManagement/intents', { signal }, (intent) => ({
        id: intent.id,
        displayName: intent.displayName,
        templateId: intent.templateId,
        isMigratingToConfigurationPolicy: intent.isMigratingToConfigurationPolicy,
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
  ]);
  return { policies, intents, templates };
}
