/** Report 2's Graph reads (every assignable kind of object with its assignments, and the groups they name), kept to the fields `derive` reads. */

import type * as Graph from '@microsoft/microsoft-graph-types';
import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { GroupResolver, throwIfGroupsForbidden } from '../../directory/group-lookup.js';
import type { GraphReader } from '../../graph/graph-reader.js';
import { asString } from '../graph-values.js';
import { intuneLinks } from '../intune-links.js';
import type { LoadContext } from '../report-model.js';
import { isGraphId } from '../../graph/graph-id.js';
import { itemsOfBatchAnswer, optionalReadFailure, rereadEach } from '../optional-read.js';
import type { OptionalRead } from '../optional-read.js';
import { loadSideBySide } from '../side-by-side.js';
import { readAuditLog } from '../../audit-story/read-audit-log.js';
import type { AuditLog } from '../../audit-story/audit-story.js';
import { pathFor, pathInBatch, selectOf } from '../../graph/upstream-read.js';
import type { UpstreamRead } from '../../graph/upstream-read.js';
import type { FILTER_FIELDS } from './reads.js';
import { scopeTagIdsOf } from '../../viewer-scope/scope-tag-ids.js';
import {
  ADMINISTRATIVE_TEMPLATES_READ,
  APP_RELATIONSHIPS_READ,
  ASSIGNMENT_FILTERS_READ,
  BETA_ASSIGNMENTS_READS,
  COMPLIANCE_POLICIES_READ,
  DEVICE_CONFIGURATIONS_READ,
  DRIVER_UPDATE_PROFILES_READ,
  FEATURE_UPDATE_PROFILES_READ,
  INTENTS_READ,
  MACOS_SHELL_SCRIPTS_READ,
  MOBILE_APPS_READ,
  PLATFORM_SCRIPTS_READ,
  QUALITY_UPDATE_POLICIES_READ,
  QUALITY_UPDATE_PROFILES_READ,
  REMEDIATIONS_READ,
  SETTINGS_CATALOG_READ,
  SETTINGS_COMPLIANCE_READ,
  TEMPLATES_READ,
} from './reads.js';
import { noFilterInTenant } from './records.js';
import type { AppRelationship, AssignableKind, AssignableObject, AssignmentFilterInfo, AssignmentRecords, AssignmentTarget, TargetFilter } from './records.js';

/** The kinds whose assignments are read again on beta (reads.ts, `BETA_ASSIGNMENTS_READS`). */
const BETA_ASSIGNMENTS: Partial<Record<AssignableKind, UpstreamRead>> = BETA_ASSIGNMENTS_READS;

interface Source {
  kind: AssignableKind;
  source: string;
  /** Its declared read (reads.ts): the path, and the `$select` beside `$expand=assignments` where it selects. */
  read: UpstreamRead;
  name: (item: Record<string, unknown>) => string;
  link: (item: Record<string, unknown>, id: string, name: string) => string;
  /** What `link` opens, when it is a list page. */
  linkLabel?: string;
}

const SOURCES: readonly Source[] = [
  { kind: 'deviceConfiguration', source: 'deviceConfigurations', read: DEVICE_CONFIGURATIONS_READ, name: displayName, link: (_, id) => intuneLinks.deviceConfiguration(id) },
  {
    kind: 'compliancePolicy',
    source: 'deviceCompliancePolicies',
    read: COMPLIANCE_POLICIES_READ,
    name: displayName,
    link: (_, id, name) => intuneLinks.compliancePolicy(id, name),
  },
  {
    kind: 'settingsCatalogPolicy',
    source: 'configurationPolicies',
    read: SETTINGS_CATALOG_READ,
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
  { kind: 'mobileApp', source: 'mobileApps', read: MOBILE_APPS_READ, name: displayName, link: (_, id) => intuneLinks.mobileApp(id) },
  { kind: 'platformScript', source: 'deviceManagementScripts', read: PLATFORM_SCRIPTS_READ, name: displayName, link: (_, id) => intuneLinks.platformScript(id) },
  { kind: 'remediation', source: 'deviceHealthScripts', read: REMEDIATIONS_READ, name: displayName, link: (_, id) => intuneLinks.remediation(id) },
  // The kinds below are beta only (reads.ts), so read on /beta whatever the coverage, where their
  // targets carry the filter fields. Those with no sourced page of their own link to their list.
  {
    kind: 'administrativeTemplate',
    source: 'groupPolicyConfigurations',
    read: ADMINISTRATIVE_TEMPLATES_READ,
    name: displayName,
    link: () => intuneLinks.configurationList(),
    linkLabel: 'the configuration list',
  },
  {
    kind: 'macOSShellScript',
    source: 'deviceShellScripts',
    read: MACOS_SHELL_SCRIPTS_READ,
    name: displayName,
    link: () => intuneLinks.scriptsList(),
    linkLabel: 'the scripts list',
  },
  ...(
    [
      ['featureUpdateProfile', 'windowsFeatureUpdateProfiles', FEATURE_UPDATE_PROFILES_READ],
      ['qualityUpdateProfile', 'windowsQualityUpdateProfiles', QUALITY_UPDATE_PROFILES_READ],
      ['qualityUpdatePolicy', 'windowsQualityUpdatePolicies', QUALITY_UPDATE_POLICIES_READ],
      ['driverUpdateProfile', 'windowsDriverUpdateProfiles', DRIVER_UPDATE_PROFILES_READ],
    ] as const
  ).map(([kind, source, read]) => ({ kind, source, read, name: displayName, link: () => intuneLinks.windowsUpdatesList(), linkLabel: 'the Windows updates list' })),
  {
    kind: 'settingsCompliancePolicy',
    source: 'compliancePolicies',
    read: SETTINGS_COMPLIANCE_READ,
    name: (item) => asString(item.name) ?? asString(item.id) ?? '',
    link: () => intuneLinks.complianceList(),
    linkLabel: 'the compliance policies list',
  },
  { kind: 'intent', source: 'intents', read: INTENTS_READ, name: displayName, link: () => intuneLinks.securityBaselines(), linkLabel: 'the security baselines list' },
];

function displayName(item: Record<string, unknown>): string {
  return asString(item.displayName) ?? asString(item.id) ?? '';
}

/** Reads a target's `@odata.type`, the discriminator of `deviceAndAppManagementAssignmentTarget`. */
export function readTarget(assignment: { target?: unknown; intent?: unknown }): AssignmentTarget {
  const target = (assignment.target ?? {}) as Graph.DeviceAndAppManagementAssignmentTarget & { '@odata.type'?: unknown; groupId?: unknown; collectionId?: unknown };
  const odataType = asString(target['@odata.type']) ?? '';
  const intent = asString(assignment.intent);
  const filter = readFilter(target as Beta.DeviceAndAppManagementAssignmentTarget);
  const common = filter ? { intent, filter } : { intent };
  switch (odataType.replace(/^#?microsoft\.graph\./, '')) {
    case 'allLicensedUsersAssignmentTarget':
      return { type: 'allUsers', ...common };
    case 'allDevicesAssignmentTarget':
      return { type: 'allDevices', ...common };
    case 'groupAssignmentTarget':
      return { type: 'include', groupId: String(target.groupId ?? '').toLowerCase(), ...common };
    case 'exclusionGroupAssignmentTarget':
      return { type: 'exclude', groupId: String(target.groupId ?? '').toLowerCase(), ...common };
    case 'configurationManagerCollectionAssignmentTarget':
      return { type: 'configMgrCollection', collectionId: String(target.collectionId ?? ''), ...common };
    default:
      return { type: 'other', odataType, ...common };
  }
}

/** The target's filter, when Graph sent its type (beta: `none`, `include` or `exclude`, no sentinel). */
function readFilter(target: Beta.DeviceAndAppManagementAssignmentTarget): TargetFilter | undefined {
  const type: unknown = target.deviceAndAppManagementAssignmentFilterType;
  if (type === undefined || type === null) return undefined;
  if (type === 'none') return { mode: 'none' };
  const id = asString(target.deviceAndAppManagementAssignmentFilterId);
  if (type === 'include' || type === 'exclude') return { mode: type, id: id ? id.toLowerCase() : null };
  return { mode: 'unrecognised', value: String(type) };
}

/**
 * A relationship record as an edge (docs/finding-rules.md, report 2). `targetType` `child`: the
 * source is the parent; `parent`: the target is (intune-apps-mobileapprelationshiptype, beta). A
 * record that cannot be oriented or typed makes the whole read unusable: one unknown edge could be
 * the one that installs an app, so the list is not taken as complete without it.
 */
export function readRelationship(item: Record<string, unknown>): AppRelationship | null {
  const record = item as Beta.MobileAppRelationship & { '@odata.type'?: unknown };
  const odataType = String(record['@odata.type'] ?? '').replace(/^#?microsoft\.graph\./, '');
  const kind = odataType === 'mobileAppDependency' ? 'dependency' : odataType === 'mobileAppSupersedence' ? 'supersedence' : null;
  const sourceId = asString(record.sourceId);
  const targetId = asString(record.targetId);
  if (!kind || !sourceId || !targetId) return null;
  const rawType = kind === 'dependency' ? (record as Beta.MobileAppDependency).dependencyType : (record as Beta.MobileAppSupersedence).supersedenceType;
  const type = typeof rawType === 'string' && rawType !== 'unknownFutureValue' ? rawType : null;
  const source = { id: sourceId.toLowerCase(), name: asString(record.sourceDisplayName) };
  const target = { id: targetId.toLowerCase(), name: asString(record.targetDisplayName) };
  const [parent, child] = record.targetType === 'child' ? [source, target] : record.targetType === 'parent' ? [target, source] : [null, null];
  if (!parent || !child) return null;
  return { kind, parentId: parent.id, childId: child.id, type, parentName: parent.name, childName: child.name };
}

/**
 * Every Win32 dependency and supersedence in the tenant as edges (`derive` counts a record and its
 * reverse once). No `$select`: `dependencyType` and `supersedenceType` belong to the derived types,
 * which a `$select` on the `mobileAppRelationship` list cannot name (see `Source.fields`).
 */
async function readRelationships(graph: GraphReader, signal: AbortSignal, onProgress: LoadContext['onProgress']): Promise<OptionalRead<AppRelationship[]>> {
  const edges: AppRelationship[] = [];
  try {
    for await (const page of graph.pages<Record<string, unknown>>(APP_RELATIONSHIPS_READ.path, { signal })) {
      for (const item of page.items) {
        const edge = readRelationship(item);
        if (!edge) return { ok: false, reason: 'Graph sent an app relationship this report cannot read' };
        edges.push(edge);
      }
      onProgress?.('mobileAppRelationships', edges.length);
    }
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, signal) };
  }
  return { ok: true, value: edges };
}

/** The tenant's assignment filters; the `platform` member after `unknownFutureValue` needs the `Prefer` header. */
async function readFilters(graph: GraphReader, signal: AbortSignal, onProgress: LoadContext['onProgress']): Promise<OptionalRead<Map<string, AssignmentFilterInfo>>> {
  const filters = new Map<string, AssignmentFilterInfo>();
  try {
    for await (const page of graph.pages<Pick<Beta.DeviceAndAppManagementAssignmentFilter, (typeof FILTER_FIELDS)[number]>>(ASSIGNMENT_FILTERS_READ.path, {
      query: { $select: selectOf(ASSIGNMENT_FILTERS_READ) },
      headers: { Prefer: 'include-unknown-enum-members' },
      signal,
    })) {
      for (const item of page.items) {
        const id = asString(item.id);
        if (!id) return { ok: false, reason: 'Graph sent a filter without an id' };
        filters.set(id.toLowerCase(), {
          id,
          displayName: asString(item.displayName) ?? id,
          managementType: asString(item.assignmentFilterManagementType) ?? 'devices',
          platform: asString(item.platform),
          rule: asString(item.rule),
        });
      }
      onProgress?.('assignmentFilters', filters.size);
    }
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, signal) };
  }
  return { ok: true, value: filters };
}

/**
 * Whether an object read on `/v1.0` must have its assignments read again on `/beta`, where their
 * targets carry the filter fields `/v1.0` does not declare (docs/finding-rules.md, report 2 and
 * "What applies", "Filters on /v1.0 objects"): whenever it has a target other than an exclusion
 * (an object assigned to exclusions only reaches no one, and "what applies" reads the filters of
 * the targets that reach the subject), so that "what applies" knows each one's filter and mode, and
 * report 2 its All users + All devices pairs. Not when the filter list was read and is empty: a
 * filter in use cannot be deleted, so no assignment has one.
 */
export function needsBetaAssignments(object: AssignableObject, filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo>>): boolean {
  if (object.readOnV1 !== true || object.targets === null || BETA_ASSIGNMENTS[object.kind] === undefined) return false;
  if (noFilterInTenant(filters)) return false;
  return object.targets.some((target) => target.type !== 'exclude');
}

/**
 * The objects' assignments read again on `/beta` through `POST /beta/$batch`, twenty to a call
 * (learn.microsoft.com/graph/json-batching; the client splits and paces the calls), each answer's
 * nextLink followed to the end, in place of the `/v1.0` ones. A failure stays with its object as
 * its `betaAssignmentsFailure` ("could not check", and for "what applies" an unknown filter), never
 * the report's, and never "no filter".
 */
async function readAllBetaAssignments(
  graph: GraphReader,
  objects: AssignableObject[],
  filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo>>,
  signal: AbortSignal,
): Promise<AssignableObject[]> {
  const result = [...objects];
  const failed = (index: number, reason: string) => (result[index] = { ...objects[index]!, betaAssignmentsFailure: reason });
  const indexes: number[] = [];
  for (const [index, object] of objects.entries()) {
    if (!needsBetaAssignments(object, filters)) continue;
    if (isGraphId(object.id)) indexes.push(index);
    else failed(index, `its id "${object.id}" is not one Graph's assignments path takes`);
  }
  if (indexes.length === 0) return result;
  const readOf = (index: number) => BETA_ASSIGNMENTS[objects[index]!.kind]!;
  // Sub-requests are named by position: two objects of one id in two lists must not make two the same.
  const outcomes = await graph.batchGet(
    indexes.map((index) => ({ id: String(index), url: `${pathInBatch(readOf(index), objects[index]!.id)}?$select=${selectOf(readOf(index))}` })),
    { signal, version: 'beta' },
  );
  const why = (error: unknown) => `its assignments could not be read on /beta to see their filters (${optionalReadFailure(error, signal)})`;
  await rereadEach(indexes, async (index) => {
    const object = objects[index]!;
    const outcome = outcomes.get(String(index));
    if (!outcome) return failed(index, 'its assignments could not be read on /beta to see their filters (Graph gave no answer for them)');
    if (!outcome.ok) return failed(index, why(outcome.error));
    const read = await itemsOfBatchAnswer<{ target?: unknown; intent?: unknown }>(graph, outcome.body, pathFor(readOf(index), object.id), signal);
    if (!read) return failed(index, 'its assignments could not be read on /beta to see their filters (Graph sent a malformed answer)');
    if (!read.ok) return failed(index, why(read.error));
    const targets = read.items.map(readTarget);
    return (result[index] = { ...object, targets, readOnV1: false });
  });
  return result;
}

/**
 * Each intent template's `platformType` (policyPlatformType, deviceManagementTemplate, beta), by
 * template id, for the intents' platforms; a failure is every intent's "platform unknown".
 */
async function readTemplatePlatforms(graph: GraphReader, signal: AbortSignal): Promise<OptionalRead<Map<string, string | null>>> {
  const platforms = new Map<string, string | null>();
  try {
    for await (const page of graph.pages<Pick<Beta.DeviceManagementTemplate, 'id' | 'platformType'>>(TEMPLATES_READ.path, { signal }))
      for (const item of page.items) if (item.id) platforms.set(item.id.toLowerCase(), asString(item.platformType));
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, signal) };
  }
  return { ok: true, value: platforms };
}

function withTemplatePlatform(object: AssignableObject, templateId: string | null, platforms: OptionalRead<ReadonlyMap<string, string | null>>): AssignableObject {
  if (!templateId) return { ...object, templatePlatform: { ok: false, reason: 'Graph sent no template id for it' } };
  if (!platforms.ok) return { ...object, templatePlatform: { ok: false, reason: `the intent templates could not be read (${platforms.reason})` } };
  const platform = platforms.value.get(templateId.toLowerCase());
  if (platform === undefined) return { ...object, templatePlatform: { ok: false, reason: 'its template is not in the template list Graph gave' } };
  return { ...object, templatePlatform: { ok: true, value: platform } };
}

/**
 * Report 2's records. `stories: false` leaves out the audit log, which only the findings' stories
 * read: "what applies", asked before report 2 has loaded, reads the assignments without it, since a
 * year of the log is the longest read of a cold load (docs/performance.md, "What applies").
 */
export async function loadAssignments(context: LoadContext, options: { stories?: boolean } = {}): Promise<AssignmentRecords> {
  const withStories = options.stories ?? true;
  const { graph, onProgress } = context;
  const controller = new AbortController();
  // Groups are looked up while the pages that name them are still arriving.
  const groups = new GroupResolver(graph, controller.signal);
  const leftOut = { catalogueApps: 0, builtInScripts: 0 };
  // Each intent's template id, to tell its platform by its template once both lists are read.
  const intentTemplates = new Map<string, string | null>();
  let templatePlatforms: OptionalRead<Map<string, string | null>> = { ok: false, reason: 'not read' };
  // The audit log for the findings' stories (docs/finding-rules.md, "A finding's last change"). The
  // lists do not select `lastModifiedDateTime`, so the window is the log's year whatever they hold:
  // its read starts with the first object found, beside the lists, rather than after them, since a
  // year of the log is a cold load's longest read (docs/performance.md, "Each table its own budget").
  // A report that finds no object reads no log. It is an optional read: it ends as a value.
  let stories: Promise<AuditLog> | undefined;
  const readStories = (): Promise<AuditLog> | undefined => {
    if (!withStories) return undefined;
    if (!stories) {
      stories = readAuditLog(context, [null], controller.signal);
      // Awaited below; a report that fails first must not leave it as an unhandled rejection.
      stories.catch(() => undefined);
    }
    return stories;
  };
  const readSource = (source: Source) => async (signal: AbortSignal) => {
    const objects: AssignableObject[] = [];
    // Read on /beta instead where /v1.0 cuts the collection short and complete coverage is on.
    const path = graph.coveragePath(source.read.path);
    const readOnV1 = path.startsWith('/v1.0/');
    // On the beta twin, the fields only beta declares too (the scope tags, reads.ts).
    const select = !readOnV1 && source.read.betaSelect ? source.read.betaSelect.join(',') : source.read.select ? selectOf(source.read) : undefined;
    const query = { $expand: 'assignments', ...(select ? { $select: select } : {}) };
    for await (const page of graph.pages<Record<string, unknown>>(path, { query, signal })) {
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
        const odataType = asString(item['@odata.type'])?.replace(/^#?microsoft\.graph\./, '');
        const templateFamily = source.kind === 'settingsCatalogPolicy' ? asString((item.templateReference as { templateFamily?: unknown } | undefined)?.templateFamily) : null;
        const platforms = source.kind === 'settingsCatalogPolicy' || source.kind === 'settingsCompliancePolicy' ? asString(item.platforms) : null;
        const technologies = source.kind === 'settingsCatalogPolicy' ? asString(item.technologies) : null;
        const settingCount = source.kind === 'settingsCatalogPolicy' && typeof item.settingCount === 'number' ? item.settingCount : null;
        if (source.kind === 'intent') intentTemplates.set(id, asString(item.templateId));
        objects.push({
          kind: source.kind,
          id,
          name,
          targets,
          link: source.link(item, id, name),
          ...(source.linkLabel ? { linkLabel: source.linkLabel } : {}),
          readOnV1,
          // Not a list of tag ids is not known, never Default (docs/finding-rules.md, "Viewer scope").
          roleScopeTagIds: scopeTagIdsOf(item.roleScopeTagIds),
          ...(odataType ? { odataType } : {}),
          ...(templateFamily ? { templateFamily } : {}),
          ...(platforms ? { platforms } : {}),
          ...(technologies !== null ? { technologies } : {}),
          ...(settingCount !== null ? { settingCount } : {}),
        });
        groups.add((targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId] : [])));
        void readStories();
      }
      onProgress?.(source.source, objects.length);
    }
    return objects;
  };
  let objects: AssignableObject[];
  let relationships: OptionalRead<AppRelationship[]> = { ok: false, reason: 'not read' };
  let filters: OptionalRead<Map<string, AssignmentFilterInfo>> = { ok: false, reason: 'not read' };
  // Both optional reads are beta only and always made, whatever the coverage setting: /v1.0 has
  // neither (docs/finding-rules.md, report 2). Each ends as a value; only a failure elsewhere stops it.
  const optional = [
    async (signal: AbortSignal) => {
      relationships = await readRelationships(graph, signal, onProgress);
      return [];
    },
    async (signal: AbortSignal) => {
      filters = await readFilters(graph, signal, onProgress);
      return [];
    },
    async (signal: AbortSignal) => {
      templatePlatforms = await readTemplatePlatforms(graph, signal);
      return [];
    },
  ];
  try {
    const perSource = await loadSideBySide<AssignableObject[][]>([...SOURCES.map(readSource), ...optional], controller);
    // Needs the filter list, so it follows it: only the few objects whose verdict hangs on filters.
    const read = perSource.flat().map((object) => (object.kind === 'intent' ? withTemplatePlatform(object, intentTemplates.get(object.id) ?? null, templatePlatforms) : object));
    objects = await readAllBetaAssignments(graph, read, filters, controller.signal);
    groups.add(objects.flatMap((object) => (object.targets ?? []).flatMap((target) => (target.type === 'include' || target.type === 'exclude' ? [target.groupId] : []))));
  } catch (error) {
    if (!controller.signal.aborted) controller.abort(error);
    // Look-ups already sent are abandoned with the report; wait for them so nothing outlives it.
    await Promise.all([groups.settle().catch(() => undefined), stories?.catch(() => undefined)]);
    throw error;
  }
  const lookups = await groups.settle();
  onProgress?.('groups', lookups.size);
  throwIfGroupsForbidden(lookups);
  const base = { objects, betaCoverage: graph.betaCoverage, groups: lookups, leftOut, relationships, filters };
  const log = objects.length === 0 ? undefined : readStories();
  return log ? { ...base, auditLog: await log } : base;
}
