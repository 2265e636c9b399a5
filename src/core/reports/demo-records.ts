import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import type { DemoRecord, DemoTenantBuilder } from './report-demo.js';
import { demoSettingDefinitions } from './demo-setting-definitions.js';

/**
 * Typed builders for the records the demo tenant holds that several reports plant; each report's
 * own are in its folder (`demo-records.ts`). Each checks its literal against the Graph type packages
 * (`satisfies`), so a misspelt field fails to compile instead of silently differing from what
 * Microsoft Graph returns.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export function daysAgo(now: Date, days: number): string {
  return new Date(now.getTime() - days * DAY_MS).toISOString();
}

export function hoursAgo(now: Date, hours: number): string {
  return new Date(now.getTime() - hours * HOUR_MS).toISOString();
}

export function daysFromNow(now: Date, days: number): string {
  return new Date(now.getTime() + days * DAY_MS).toISOString();
}

/** A typed Graph entity, as the demo tenant serves it. */
export function asDemoRecord<T>(value: T & { id: string }): DemoRecord {
  return value as unknown as DemoRecord;
}

// ---- assignment targets -------------------------------------------------------------------

export type Target =
  | { kind: 'allUsers' }
  | { kind: 'allDevices' }
  | { kind: 'include'; groupId: string }
  | { kind: 'exclude'; groupId: string }
  | { kind: 'configMgrCollection'; collectionId: string };

export function assignmentTarget(target: Target): Graph.DeviceAndAppManagementAssignmentTarget {
  switch (target.kind) {
    case 'allUsers':
      return { '@odata.type': '#microsoft.graph.allLicensedUsersAssignmentTarget' } as Graph.AllLicensedUsersAssignmentTarget;
    case 'allDevices':
      return { '@odata.type': '#microsoft.graph.allDevicesAssignmentTarget' } as Graph.AllDevicesAssignmentTarget;
    case 'include':
      return { '@odata.type': '#microsoft.graph.groupAssignmentTarget', groupId: target.groupId } as Graph.GroupAssignmentTarget;
    case 'exclude':
      return { '@odata.type': '#microsoft.graph.exclusionGroupAssignmentTarget', groupId: target.groupId } as Graph.ExclusionGroupAssignmentTarget;
    case 'configMgrCollection':
      return {
        '@odata.type': '#microsoft.graph.configurationManagerCollectionAssignmentTarget',
        collectionId: target.collectionId,
      } as Graph.ConfigurationManagerCollectionAssignmentTarget;
  }
}

/** An object's `assignments`, as `$expand=assignments` returns them. */
export function assignments(ownerId: string, targets: readonly Target[]): Array<{ id: string; target: Graph.DeviceAndAppManagementAssignmentTarget }> {
  return targets.map((target, index) => ({ id: `${ownerId}_${index}`, target: assignmentTarget(target) }));
}

// ---- settings catalog policies (reports 2 and 3) ------------------------------------------

export type SettingInstance = Beta.DeviceManagementConfigurationSettingInstance & Record<string, unknown>;
export function configurationPolicy(value: {
  id: string;
  name: string;
  templateFamily: Beta.DeviceManagementConfigurationTemplateFamily;
  templateId?: string;
  templateDisplayName?: string;
  templateDisplayVersion?: string;
  technologies?: string;
  settings: SettingInstance[];
  targets: readonly Target[];
  now: Date;
  /** What Graph reports as `settingCount`, when it is not the number of settings (report 3's completeness cases). */
  settingCount?: number;
  /** Assignments made through a policy set: `source: policySets`, `sourceId` the set's id. */
  policySetId?: string;
}): DemoRecord {
  return asDemoRecord({
    id: value.id,
    name: value.name,
    description: '',
    platforms: 'windows10',
    technologies: (value.technologies ?? 'mdm') as Beta.DeviceManagementConfigurationTechnologies,
    createdDateTime: daysAgo(value.now, 250),
    lastModifiedDateTime: daysAgo(value.now, 12),
    settingCount: value.settingCount ?? value.settings.length,
    isAssigned: value.targets.length > 0,
    roleScopeTagIds: ['0'],
    templateReference: {
      templateId: value.templateId ?? '',
      templateFamily: value.templateFamily,
      templateDisplayName: value.templateDisplayName ?? null,
      templateDisplayVersion: value.templateDisplayVersion ?? null,
    },
    // `settingDefinitions` is a navigation property: served only to `$expand=settingDefinitions` (src/sim/odata-shaping.ts).
    settings: value.settings.map((settingInstance, index) => ({ id: String(index), settingInstance, settingDefinitions: demoSettingDefinitions(settingInstance) })),
    assignments: value.targets.map((target, index) => ({
      id: `${value.id}_${index}`,
      source: value.policySetId ? ('policySets' as const) : ('direct' as const),
      sourceId: value.policySetId ?? value.id,
      target: assignmentTarget(target) as Beta.DeviceAndAppManagementAssignmentTarget,
    })),
  } satisfies Beta.DeviceManagementConfigurationPolicy);
}

/** Plants a settings catalog policy, which reports 2 and 3 both read, and gives its id. */
export function plantConfigurationPolicy(tenant: Pick<DemoTenantBuilder, 'now' | 'guid' | 'add'>, value: Omit<Parameters<typeof configurationPolicy>[0], 'id' | 'now'>): string {
  const item = configurationPolicy({ id: tenant.guid(), now: tenant.now, ...value });
  tenant.add('configurationPolicies', item);
  return item.id;
}
