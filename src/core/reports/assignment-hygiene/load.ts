/** Report 2's Graph reads (every assignable kind of object with its assignments, and the groups they name), kept to the fields `derive` reads. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { GroupResolver, throwIfGroupsForbidden } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { asString } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { LoadContext } from '../report-model.js';
import { loadSideBySide } from '../side-by-side.js';

export type AssignableKind = 'deviceConfiguration' | 'compliancePolicy' | 'settingsCatalogPolicy' | 'mobileApp' | 'platformScript' | 'remediation';

/** One assignment target, reduced to what the rules read. */
export type AssignmentTarget =
  | { type: 'allUsers'; intent: string | null }
  | { type: 'allDevices'; intent: string | null }
  | { type: 'include'; groupId: string; intent: string | null }
  | { type: 'exclude'; groupId: string; intent: string | null }
  | { type: 'configMgrCollection'; collectionId: string; intent: string | null }
  | { type: 'other'; odataType: string; intent: string | null };

export interface AssignableObject {
  kind: AssignableKind;
  id: string;
  name: string;
  /** null when Graph's answer had no `assignments` to read: unknown, never "unassigned". */
  targets: AssignmentTarget[] | null;
  /** For the settings catalog deep link. */
  link: string;
}

export interface AssignmentRecords {
  objects: AssignableObject[];
  /** Whether the collections `/v1.0` cuts short were read on `/beta`; if not, the report says what it cannot show. */
  betaCoverage: boolean;
  /** Objects left out as the Intune admin center leaves them out (Microsoft's own), by kind. */
  leftOut: { catalogueApps: number; builtInScripts: number };
  /** Every group an assignment references, by lower-case id. */
  groups: Map<string, GroupLookup>;
}

interface Source {
  kind: AssignableKind;
  source: string;
  path: string;
  name: (item: Record<string, unknown>) => string;
  link: (item: Record<string, unknown>, id: string, name: string) => string;
}

const SOURCES: readonly Source[] = [
  {
    kind: 'deviceConfiguration',
    source: 'deviceConfigurations',
    path: '/v1.0/deviceManagement/deviceConfigurations',
    name: displayName,
    link: (_, id) => intuneLinks.deviceConfiguration(id),
  },
  {
    kind: 'compliancePolicy',
    source: 'deviceCompliancePolicies',
    path: '/v1.0/deviceManagement/deviceCompliancePolicies',
    name: displayName,
    link: (_, id, name) => intuneLinks.compliancePolicy(id, name),
  },
  {
    kind: 'settingsCatalogPolicy',
    source: 'configurationPolicies',
    path: '/beta/deviceManagement/configurationPolicies',
    name: (item) => asString(item.name) ?? asString(item.id) ?? '',
    link: (item, id) =>
      intuneLinks.configurationPolicy({
        id,
        isAssigned: item.isAssigned === true,
        technologies: asString(item.technologies) ?? '',
        templateId: asString((item.templateReference as { templateId?: unknown } | undefined)?.templateId) ?? '',
        platforms: asString(item.platforms) ?? '',
      }),
  },
  { kind: 'mobileApp', source: 'mobileApps', path: '/v1.0/deviceAppManagement/mobileApps', name: displayName, link: (_, id) => intuneLinks.mobileApp(id) },
  {
    kind: 'platformScript',
    source: 'deviceManagementScripts',
    path: '/beta/deviceManagement/deviceManagementScripts',
    name: displayName,
    link: (_, id) => intuneLinks.platformScript(id),
  },
  { kind: 'remediation', source: 'deviceHealthScripts', path: '/beta/deviceManagement/deviceHealthScripts', name: displayName, link: (_, id) => intuneLinks.remediation(id) },
];

function displayName(item: Record<string, unknown>): string {
  return asString(item.displayName) ?? asString(item.id) ?? '';
}

/** Reads a target's `@odata.type`, the discriminator of `deviceAndAppManagementAssignmentTarget`. */
export function readTarget(assignment: { target?: unknown; intent?: unknown }): AssignmentTarget {
  const target = (assignment.target ?? {}) as Graph.DeviceAndAppManagementAssignmentTarget & { '@odata.type'?: unknown; groupId?: unknown; collectionId?: unknown };
  const odataType = asString(target['@odata.type']) ?? '';
  const intent = asString(assignment.intent);
  switch (odataType.replace(/^#?microsoft\.graph\./, '')) {
    case 'allLicensedUsersAssignmentTarget':
      return { type: 'allUsers', intent };
    case 'allDevicesAssignmentTarget':
      return { type: 'allDevices', intent };
    case 'groupAssignmentTarget':
      return { type: 'include', groupId: String(target.groupId ?? '').toLowerCase(), intent };
    case 'exclusionGroupAssignmentTarget':
      return { type: 'exclude', groupId: String(target.groupId ?? '').toLowerCase(), intent };
    case 'configurationManagerCollectionAssignmentTarget':
      return { type: 'configMgrCollection', collectionId: String(target.collectionId ?? ''), intent };
    default:
      return { type: 'other', odataType, intent };
  }
}

export async function loadAssignments({ graph, onProgress }: LoadContext): Promise<AssignmentRecords> {
  const controller = new AbortController();
  // Groups are looked up while the pages that name them are still arriving.
  const groups = new GroupResolver(graph, controller.signal);
  const leftOut = { catalogueApps: 0, builtInScripts: 0 };
  const readSource = (source: Source) => async (signal: AbortSignal) => {
    const objects: AssignableObject[] = [];
    // Read on /beta instead where /v1.0 cuts the collection short and complete coverage is on.
    for await (const page of graph.pages<Record<string, unknown>>(graph.coveragePath(source.path), { query: { $expand: 'assignments' }, signal })) {
      for (const item of page.items) {
        // Microsoft's catalogue apps (managedApp.appAvailability "global") are in every tenant, and
        // its remediation scripts (deviceHealthScript.isGlobalScript) are read-only: unassigned by
        // nature, and left out of the Intune admin center's lists too.
        if (source.kind === 'mobileApp' && item.appAvailability === 'global') {
          leftOut.catalogueApps += 1;
          continue;
        }
        if (source.kind === 'remediation' && item.isGlobalScript === true) {
          leftOut.builtInScripts += 1;
          continue;
        }
        const id = String(item.id);
        const name = source.name(item);
        const targets = Array.isArray(item.assignments) ? (item.assignments as Array<{ target?: unknown; intent?: unknown }>).map(readTarget) : null;
        objects.push({ kind: source.kind, id, name, targets, link: source.link(item, id, name) });
        groups.add((targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId] : [])));
      }
      onProgress?.(source.source, objects.length);
    }
    return objects;
  };
  let perSource: AssignableObject[][];
  try {
    perSource = await loadSideBySide<AssignableObject[][]>(SOURCES.map(readSource), controller);
  } catch (error) {
    // Look-ups already sent are abandoned with the report; wait for them so nothing outlives it.
    await groups.settle().catch(() => undefined);
    throw error;
  }
  const lookups = await groups.settle();
  onProgress?.('groups', lookups.size);
  throwIfGroupsForbidden(lookups);
  return { objects: perSource.flat(), betaCoverage: graph.betaCoverage, groups: lookups, leftOut };
}
