/** Report 3's records in the demo tenant (settings catalog policies: ../demo-records.ts), typed against the Graph type packages. */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { asDemoRecord, daysAgo } from '../demo-records.js';
import type { SettingInstance } from '../demo-records.js';
import type { DemoRecord } from '../report-demo.js';
import { ASR_RULES_SETTING } from '../../policy-settings/settings-read.js';

export function choiceSetting(settingDefinitionId: string, valueSuffix: string, children: SettingInstance[] = []): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationChoiceSettingInstance',
    settingDefinitionId,
    choiceSettingValue: { value: `${settingDefinitionId}_${valueSuffix}`, children },
  } as SettingInstance;
}

/** The ASR rules group setting: one child choice per rule, valued `<rule setting>_<block|audit|warn|off>`. */
export function asrRulesSetting(rules: Record<string, 'block' | 'audit' | 'warn' | 'off'>): SettingInstance {
  return {
    '@odata.type': '#microsoft.graph.deviceManagementConfigurationGroupSettingCollectionInstance',
    settingDefinitionId: ASR_RULES_SETTING,
    groupSettingCollectionValue: [{ children: Object.entries(rules).map(([rule, mode]) => choiceSetting(`${ASR_RULES_SETTING}_${rule}`, mode)) }],
  } as SettingInstance;
}

export function deviceManagementTemplate(value: {
  id: string;
  displayName: string;
  templateType: Beta.DeviceManagementTemplateType;
  templateSubtype?: Beta.DeviceManagementTemplateSubtype;
  versionInfo: string;
  publishedDateTime: string;
  isDeprecated: boolean;
}): DemoRecord {
  return asDemoRecord({
    '@odata.type': '#microsoft.graph.securityBaselineTemplate',
    id: value.id,
    displayName: value.displayName,
    description: '',
    versionInfo: value.versionInfo,
    isDeprecated: value.isDeprecated,
    intentCount: 1,
    templateType: value.templateType,
    platformType: 'windows10AndLater',
    templateSubtype: value.templateSubtype ?? 'none',
    publishedDateTime: value.publishedDateTime,
  } satisfies Beta.DeviceManagementTemplate & { '@odata.type': string });
}

/** A settings catalog template (deviceManagementConfigurationPolicyTemplate): its id is `<baseId>_<version>`, "composed of BaseId and Version". */
export function configurationPolicyTemplate(value: {
  baseId: string;
  version: number;
  displayName: string;
  displayVersion: string;
  lifecycleState: Beta.DeviceManagementTemplateLifecycleState;
  /** A string: `extensibility` (STIG audit baselines) is newer than the type package's enum. */
  technologies?: string;
}): DemoRecord {
  return asDemoRecord({
    id: `${value.baseId}_${value.version}`,
    baseId: value.baseId,
    version: value.version,
    displayName: value.displayName,
    description: '',
    displayVersion: value.displayVersion,
    lifecycleState: value.lifecycleState,
    platforms: 'windows10',
    technologies: (value.technologies ?? 'mdm') as Beta.DeviceManagementConfigurationTechnologies,
    templateFamily: 'baseline',
    settingTemplateCount: 0,
    allowUnmanagedSettings: false,
    disableEntraGroupPolicyAssignment: false,
  } satisfies Beta.DeviceManagementConfigurationPolicyTemplate);
}

export function deviceManagementIntent(value: { id: string; displayName: string; templateId: string; now: Date; isAssigned?: boolean }): DemoRecord {
  return asDemoRecord({
    id: value.id,
    displayName: value.displayName,
    description: '',
    isAssigned: value.isAssigned ?? true,
    isMigratingToConfigurationPolicy: false,
    lastModifiedDateTime: daysAgo(value.now, 60),
    templateId: value.templateId,
    roleScopeTagIds: ['0'],
  } satisfies Beta.DeviceManagementIntent);
}
