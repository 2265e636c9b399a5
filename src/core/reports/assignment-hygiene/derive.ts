/** Report 2's rules (docs/finding-rules.md): records in, table and findings out, no I/O. */

import { describeGroup } from '../../directory/group-lookup.js';
import type { GroupLookup } from '../../directory/group-lookup.js';
import { compareText, plural } from '../graph-values.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, ReportRow, UncheckedSubject } from '../report-model.js';
import { severityTone } from '../report-model.js';
import { ASSIGNMENT_FINDING_KINDS } from './finding-kinds.js';
import type { AssignmentFindingKind } from './finding-kinds.js';
import { noFilterInTenant } from './records.js';
import type { OptionalRead } from '../optional-read.js';
import type { AppRelationship, AssignableKind, AssignableObject, AssignmentFilterInfo, AssignmentRecords, AssignmentTarget } from './records.js';
import { BETA_COVERAGE_ASK } from '../beta-coverage.js';
import { ROW_SCOPE_TAGS_KEY, scopeTagsCell } from '../../viewer-scope/scope-tag-ids.js';

const ASSIGNMENT_KINDS = Object.keys(ASSIGNMENT_FINDING_KINDS) as AssignmentFindingKind[];

const KIND_LABELS: Record<AssignableKind, string> = {
  deviceConfiguration: 'Configuration profile',
  compliancePolicy: 'Compliance policy',
  settingsCatalogPolicy: 'Settings catalog policy',
  mobileApp: 'App',
  platformScript: 'Platform script',
  remediation: 'Remediation',
  administrativeTemplate: 'Administrative template',
  macOSShellScript: 'macOS shell script',
  featureUpdateProfile: 'Windows feature update profile',
  qualityUpdateProfile: 'Windows quality update profile',
  qualityUpdatePolicy: 'Windows quality update policy',
  driverUpdateProfile: 'Windows driver update profile',
  settingsCompliancePolicy: 'Compliance policy (settings catalog)',
  intent: 'Endpoint security policy (intent)',
};

/**
 * What the specification's `/v1.0` reads cannot show: Graph's v1.0 schema does not declare these
 * types, and its lists leave them out without a word (the full list: src/sim/v1-schema.ts, from
 * Microsoft's published v1.0 and beta metadata). Assignment filters and Win32 relationships, which
 * /v1.0 does not show either, are read on beta whatever the coverage (docs/finding-rules.md, report 2).
 */
export const V1_COVERAGE_NOTICE =
  "Not shown: Microsoft Graph's v1.0 lists leave out every profile, policy and app type that only its beta version has, " +
  'among them Wi-Fi, VPN, certificate (SCEP, PKCS, PFX, trusted root), email and wired-network profiles, Android Enterprise ' +
  'fully managed and AOSP profiles, Windows kiosk, domain join and delivery optimisation profiles; Android Enterprise device ' +
  'owner and AOSP compliance policies; Microsoft 365 Apps, Microsoft Store (WinGet), macOS PKG and managed Google Play apps. ' +
  `${BETA_COVERAGE_ASK} to include them.`;

export type HygieneVerdict =
  | { kind: 'unassigned'; detail?: string }
  | { kind: 'exclusions-only'; detail?: string }
  | { kind: 'assigned-to-missing-or-empty-groups'; groups: GroupLookup[]; detail?: string }
  /** As above, with at least one deleted group still restorable (docs/finding-rules.md, report 2, "Soft-deleted groups"). */
  | { kind: 'assigned-to-restorable-deleted-groups'; groups: GroupLookup[]; detail?: string }
  | { kind: 'all-users-and-all-devices'; intents: { allUsers: string | null; allDevices: string | null }; detail?: string }
  | { kind: 'unknown-groups'; groups: GroupLookup[] }
  | { kind: 'unknown-assignments' }
  /** Something the verdict depends on could not be read (a filter, an app relationship): no finding. */
  /** `unchecked`: the finding kind the object may still have, which this load could not decide. */
  | { kind: 'could-not-check'; reason: string; unchecked: AssignmentFindingKind }
  /** `note`: why an object that looks unused is not a finding (a dependency, a superseded app, separating filters). */
  | { kind: 'ok'; note?: string };

/** What the filter rules need besides the targets: the tenant's filter list, and whether the object was read where filters are invisible. */
export interface FilterContext {
  filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo>>;
  readOnV1: boolean;
  /** Why the object's assignments could not be read again on `/beta`, where their filters show. */
  betaAssignmentsFailure?: string | undefined;
}

/** A test's or a tenant's without filters: the list was read and is empty. */
const NO_FILTERS: FilterContext = { filters: { ok: true, value: new Map() }, readOnV1: false };

export const V1_FILTERS_REASON = '/v1.0 does not show their assignment filters';

type FilterState = { kind: 'none' } | { kind: 'filtered'; mode: 'include' | 'exclude'; id: string; name: string } | { kind: 'unknown'; reason: string };

/**
 * One target's filter as the rules may use it (docs/finding-rules.md, report 2, "Assignment
 * filters"). A filter in use cannot be deleted ("To delete a filter, you must remove the filter from
 * any policy assignments", learn.microsoft.com/intune/intune-service/fundamentals/filters), so an id
 * the list lacks is unknown, never deleted; and fields Graph did not send are unknown unless the
 * tenant has no filter at all.
 */
function filterState(target: AssignmentTarget, context: FilterContext): FilterState {
  const filter = target.filter;
  if (filter === undefined) {
    if (noFilterInTenant(context.filters)) return { kind: 'none' };
    if (context.betaAssignmentsFailure) return { kind: 'unknown', reason: context.betaAssignmentsFailure };
    return { kind: 'unknown', reason: context.readOnV1 ? V1_FILTERS_REASON : 'Graph did not say whether they use a filter' };
  }
  if (filter.mode === 'none') return { kind: 'none' };
  if (filter.mode === 'unrecognised') return { kind: 'unknown', reason: `one uses an assignment filter type this report does not know ("${filter.value}")` };
  if (!filter.id) return { kind: 'unknown', reason: 'a filter could not be read (Graph gave no filter id)' };
  if (!context.filters.ok) return { kind: 'unknown', reason: `a filter could not be read (${context.filters.reason})` };
  const known = context.filters.value.get(filter.id);
  if (!known) return { kind: 'unknown', reason: "a filter could not be read (it is not in the tenant's filter list as Graph gave it)" };
  // Managed-app filters apply to app protection and app configuration policies only
  // (learn.microsoft.com/intune/intune-service/fundamentals/filters).
  if (known.managementType !== 'devices') return { kind: 'unknown', reason: `filter "${known.displayName}" is a managed-app filter, which this kind of object does not take` };
  return { kind: 'filtered', mode: filter.mode, id: filter.id, name: known.displayName };
}

type PairVerdict = { kind: 'overlap' } | { kind: 'separated'; filter: string } | { kind: 'unknown'; reason: string };

/**
 * One All users target against one All devices target (docs/finding-rules.md, report 2, table 2.3).
 * Intune resolves an app's intent before it evaluates filters, so different intents conflict
 * whatever the filters (learn.microsoft.com/intune/intune-service/apps/apps-deploy, "How conflicts
 * between app intents are resolved"). Otherwise the same filter in opposite modes splits the devices
 * in two; no filter on one side, or the same filter in the same mode, leaves an overlap; two
 * different filters depend on device properties this app does not evaluate.
 */
function comparePair(allUsers: AssignmentTarget, allDevices: AssignmentTarget, context: FilterContext): PairVerdict {
  if (allUsers.intent && allDevices.intent && allUsers.intent !== allDevices.intent) return { kind: 'overlap' };
  const users = filterState(allUsers, context);
  const devices = filterState(allDevices, context);
  if (users.kind === 'unknown') return users;
  if (devices.kind === 'unknown') return devices;
  if (users.kind === 'none' || devices.kind === 'none') return { kind: 'overlap' };
  if (users.id === devices.id) return users.mode === devices.mode ? { kind: 'overlap' } : { kind: 'separated', filter: users.name };
  return { kind: 'unknown', reason: `they use different filters ("${users.name}", "${devices.name}"), whose overlap depends on the devices` };
}

/** The rules of docs/finding-rules.md, report 2, for one object. */
export function classifyAssignments(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>, context: FilterContext = NO_FILTERS): HygieneVerdict {
  if (targets === null) return { kind: 'unknown-assignments' };
  if (targets.length === 0) return { kind: 'unassigned' };
  const allUsers = targets.filter((target) => target.type === 'allUsers');
  const allDevices = targets.filter((target) => target.type === 'allDevices');
  let note: string | undefined;
  if (allUsers.length > 0 && allDevices.length > 0) {
    const compared = allUsers.flatMap((users) => allDevices.map((devices) => ({ users, devices, verdict: comparePair(users, devices, context) })));
    // The detail names the intents of a pair that overlaps, not merely the first targets.
    const overlapping = compared.find(({ verdict }) => verdict.kind === 'overlap');
    if (overlapping) return { kind: 'all-users-and-all-devices', intents: { allUsers: overlapping.users.intent, allDevices: overlapping.devices.intent } };
    const pairs = compared.map(({ verdict }) => verdict);
    const unknown = pairs.find((pair) => pair.kind === 'unknown');
    if (unknown) return { kind: 'could-not-check', reason: `All users and All devices may overlap, but ${unknown.reason}`, unchecked: 'all-users-and-all-devices' };
    const separated = pairs.find((pair) => pair.kind === 'separated');
    if (separated) note = `All users and All devices are kept apart by filter "${separated.filter}" (include on one, exclude on the other)`;
  }
  if (targets.every((target) => target.type === 'exclude')) return { kind: 'exclusions-only' };
  // Any broad or unresolvable include reaches someone (or might): never a finding.
  if (targets.some((target) => target.type === 'allUsers' || target.type === 'allDevices' || target.type === 'configMgrCollection' || target.type === 'other'))
    return note ? { kind: 'ok', note } : { kind: 'ok' };
  const included = targets
    .filter((target) => target.type === 'include')
    .map((target) => groups.get(target.groupId) ?? { state: 'unknown' as const, id: target.groupId, error: { message: 'not looked up' } });
  if (included.some((group) => group.state === 'found' && !group.isEmpty)) return { kind: 'ok' };
  const unknown = included.filter((group) => group.state === 'unknown');
  if (unknown.length > 0) return { kind: 'unknown-groups', groups: unknown };
  // A group still in deleted items can be restored, and the assignment then targets it again: a remediation of its own.
  const restorable = included.some((group) => group.state === 'deleted' && group.recovery?.kind === 'restorable');
  return { kind: restorable ? 'assigned-to-restorable-deleted-groups' : 'assigned-to-missing-or-empty-groups', groups: included };
}

const REACHES_NO_ONE = new Set<HygieneVerdict['kind']>(['assigned-to-missing-or-empty-groups', 'assigned-to-restorable-deleted-groups']);

// Win32 dependencies and supersedence (docs/finding-rules.md, report 2). The short page names below
// are learn.microsoft.com/intune/intune-service/apps/apps-win32-add#step-5-dependencies and
// learn.microsoft.com/intune/intune-service/apps/apps-win32-supersedence.

/** Intents that install: an app assigned only as `uninstall` installs no dependency ("Dependencies aren't applicable for uninstalling a Win32 app", apps-win32-add). */
const INSTALLING_INTENTS = new Set(['required', 'available']);

/** Win32 app types: only these can be a dependency ("Any Win32 app dependency needs to also be a Win32 app", apps-win32-add). */
const WIN32_APP_TYPES = new Set(['win32LobApp', 'win32CatalogApp']);

type Reach = 'yes' | 'unknown' | 'no';

/**
 * Whether an app's install assignments (required or available) reach anyone; filters narrow an
 * include but are not evaluated here. An include whose intent Graph did not state may install:
 * unknown, never "no".
 */
function installReach(app: AssignableObject, groups: ReadonlyMap<string, GroupLookup>): Reach {
  if (app.targets === null) return 'unknown';
  const includes = app.targets.filter((target) => target.type !== 'exclude' && (target.intent === null || INSTALLING_INTENTS.has(target.intent)));
  const reaches = (target: AssignmentTarget): Reach => {
    if (target.type !== 'include') return 'yes';
    const group = groups.get(target.groupId);
    if (group?.state === 'found') return group.isEmpty ? 'no' : 'yes';
    return group?.state === 'deleted' ? 'no' : 'unknown';
  };
  const reach = includes.map((target) => (target.intent === null ? (reaches(target) === 'no' ? 'no' : 'unknown') : reaches(target)));
  return reach.includes('yes') ? 'yes' : reach.includes('unknown') ? 'unknown' : 'no';
}

interface AppGraph {
  apps: ReadonlyMap<string, AssignableObject>;
  edges: readonly AppRelationship[];
  groups: ReadonlyMap<string, GroupLookup>;
  /** Apps Intune installs as an automatic dependency of an app that reaches someone (`yes`), or may (`unknown`): `autoInstallReach`. */
  autoInstalled: ReadonlyMap<string, Reach>;
}

/** One edge per (kind, parent, child): a relationship may be listed from both ends (targetType child and parent). */
function uniqueEdges(edges: readonly AppRelationship[]): AppRelationship[] {
  const unique = new Map<string, AppRelationship>();
  for (const edge of edges) {
    const key = `${edge.kind} ${edge.parentId} ${edge.childId}`;
    const known = unique.get(key);
    // Keep a stated type over one Graph did not state when the two ends disagree.
    if (!known || (known.type === null && edge.type !== null)) unique.set(key, edge);
  }
  return [...unique.values()];
}

function appName(graph: AppGraph, id: string, fallback: string | null): string {
  return `"${graph.apps.get(id)?.name ?? fallback ?? id}"`;
}

/**
 * Which apps Intune installs as an automatic dependency: those below an app that installs and
 * reaches someone, through `autoInstall` edges (a missing or `unknownFutureValue` type taken as
 * one), at any depth ("You do not have to assign dependent apps; Intune automatically targets and
 * installs them"; "a dependency can have recursive sub-dependencies", apps-win32-add). `unknown`
 * below an app whose reach is unknown. One walk from each kind of start, each app visited once, so
 * any graph, cycles included, costs its size.
 */
function autoInstallReach(apps: ReadonlyMap<string, AssignableObject>, edges: readonly AppRelationship[], groups: ReadonlyMap<string, GroupLookup>): Map<string, Reach> {
  const children = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.kind !== 'dependency' || edge.type === 'detect') continue;
    const known = children.get(edge.parentId);
    if (known) known.push(edge.childId);
    else children.set(edge.parentId, [edge.childId]);
  }
  const ownReach = (id: string): Reach => {
    const app = apps.get(id);
    return app ? installReach(app, groups) : 'unknown';
  };
  const reach = new Map<string, Reach>();
  const spread = (value: Reach) => {
    const pending = [...children.keys()].filter((id) => ownReach(id) === value || reach.get(id) === value);
    while (pending.length > 0) {
      for (const child of children.get(pending.pop()!) ?? []) {
        if (reach.has(child)) continue;
        reach.set(child, value);
        pending.push(child);
      }
    }
  };
  spread('yes');
  spread('unknown');
  return reach;
}

/** An app's reach as an installer: its own assignments, or as an automatic dependency of one that reaches. */
function installerReach(graph: AppGraph, id: string): Reach {
  const app = graph.apps.get(id);
  const own = app ? installReach(app, graph.groups) : 'unknown';
  const auto = graph.autoInstalled.get(id) ?? 'no';
  return own === 'yes' || auto === 'yes' ? 'yes' : own === 'unknown' || auto === 'unknown' ? 'unknown' : 'no';
}

/** Turns an unassigned Win32 app's verdict into what its relationships make of it (docs/finding-rules.md, report 2, table 1.3). */
function relationshipVerdict(graph: AppGraph, app: AssignableObject, verdict: HygieneVerdict): HygieneVerdict {
  const id = app.id.toLowerCase();
  const asChild = graph.edges.filter((edge) => edge.childId === id);
  const superseding = graph.edges.filter((edge) => edge.kind === 'supersedence' && edge.parentId === id);
  // "Superseding apps that aren't targeted are ignored by the agent" (apps-win32-supersedence).
  const supersedes =
    superseding.length > 0
      ? ` It supersedes ${superseding.map((edge) => appName(graph, edge.childId, edge.childName)).join(', ')}, but Intune ignores a superseding app that isn't targeted, so ${superseding.length === 1 ? 'that app is' : 'those apps are'} not updated or replaced.`
      : '';
  const installed = graph.autoInstalled.get(id) ?? 'no';
  const installingParents = asChild
    .filter((edge) => edge.kind === 'dependency' && edge.type !== 'detect' && installerReach(graph, edge.parentId) === 'yes')
    .map((edge) => appName(graph, edge.parentId, edge.parentName));
  const unknownTyped = asChild.some((edge) => edge.kind === 'dependency' && edge.type === null);
  const installedNote = `Installed automatically as a dependency of ${installingParents.join(', ')}${unknownTyped ? ' (dependency type not stated by Graph; taken as automatic install)' : ''}`;
  if (verdict.kind !== 'unassigned') {
    // Its own assignments reach no one, but Intune installs it for its parent's devices all the same.
    if (installed === 'yes' && REACHES_NO_ONE.has(verdict.kind)) return { kind: 'ok', note: `${installedNote}; its own assignments reach no one` };
    // Whether an exclusion keeps Intune from installing a dependency there, Microsoft does not say.
    if (installed !== 'no' && verdict.kind === 'exclusions-only')
      return {
        kind: 'could-not-check',
        reason: `assigned only through exclusions, and a dependency of ${installingParents.join(', ') || 'an app'} that Intune may install`,
        unchecked: 'exclusions-only',
      };
    if (supersedes && (verdict.kind === 'exclusions-only' || verdict.kind === 'assigned-to-missing-or-empty-groups' || verdict.kind === 'assigned-to-restorable-deleted-groups'))
      return { ...verdict, detail: supersedes.trim() };
    return verdict;
  }
  if (installed === 'yes') return { kind: 'ok', note: installedNote };
  const supersededBy = asChild.filter((edge) => edge.kind === 'supersedence');
  const supersederReach = supersededBy.map((edge) => {
    const parent = graph.apps.get(edge.parentId);
    return { edge, reach: parent ? installReach(parent, graph.groups) : ('unknown' as Reach) };
  });
  const reachingSuperseders = supersederReach.filter((entry) => entry.reach === 'yes');
  // "the supersedence takes place regardless of whether the superseded app has targeting" (apps-win32-supersedence).
  if (reachingSuperseders.length > 0)
    return {
      kind: 'ok',
      note: `Superseded by ${reachingSuperseders.map(({ edge }) => `${appName(graph, edge.parentId, edge.parentName)}${edge.type ? ` (${edge.type})` : ''}`).join(', ')}`,
    };
  // A detection-only dependency is a prerequisite of a parent that installs somewhere; of a parent that reaches no one, it serves nothing.
  const detect = asChild.filter((edge) => edge.kind === 'dependency' && edge.type === 'detect');
  const detectReach = detect.map((edge) => ({ edge, reach: installerReach(graph, edge.parentId) }));
  const reachingDetect = detectReach.filter((entry) => entry.reach === 'yes');
  if (reachingDetect.length > 0)
    return {
      kind: 'ok',
      note: `Detection-only dependency of ${reachingDetect.map(({ edge }) => appName(graph, edge.parentId, edge.parentName)).join(', ')}: Intune checks for it but never installs it`,
    };
  if (installed === 'unknown' || supersederReach.some((entry) => entry.reach === 'unknown') || detectReach.some((entry) => entry.reach === 'unknown'))
    return { kind: 'could-not-check', reason: 'it may be installed or replaced through an app whose assignments could not be checked', unchecked: 'unassigned' };
  const dependencyOf = asChild.filter((edge) => edge.kind === 'dependency').map((edge) => appName(graph, edge.parentId, edge.parentName));
  const named = [
    dependencyOf.length > 0
      ? ` It is a dependency of ${dependencyOf.join(', ')}, which reach${dependencyOf.length === 1 ? 'es' : ''} nobody or ${dependencyOf.length === 1 ? 'is' : 'are'} assigned only to uninstall.`
      : '',
    supersededBy.length > 0
      ? ` It is superseded by ${supersededBy.map((edge) => appName(graph, edge.parentId, edge.parentName)).join(', ')}, which reach${supersededBy.length === 1 ? 'es' : ''} nobody.`
      : '',
    supersedes,
  ].join('');
  return named ? { kind: 'unassigned', detail: named.trim() } : verdict;
}

function groupLabel(group: GroupLookup | undefined, id: string): string {
  return describeGroup(group ?? { state: 'unknown', id, error: { message: 'not looked up' } });
}

function describeFilter(target: AssignmentTarget, filters: AssignmentRecords['filters']): string {
  const filter = target.filter;
  if (!filter || filter.mode === 'none') return '';
  if (filter.mode === 'unrecognised') return ` (filter type "${filter.value}")`;
  const known = filter.id && filters.ok ? filters.value.get(filter.id) : undefined;
  return known ? ` (${filter.mode} filter "${known.displayName}")` : ` (${filter.mode} filter ${filter.id ?? 'without an id'}, could not be read)`;
}

function describeTargets(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>, filters: AssignmentRecords['filters']): string {
  if (targets === null) return 'Not returned by Graph';
  if (targets.length === 0) return 'None';
  const withIntent = (text: string, target: AssignmentTarget) => `${target.intent ? `${text} [${target.intent}]` : text}${describeFilter(target, filters)}`;
  const include: string[] = [];
  const exclude: string[] = [];
  for (const target of targets) {
    if (target.type === 'allUsers') include.push(withIntent('All users', target));
    else if (target.type === 'allDevices') include.push(withIntent('All devices', target));
    else if (target.type === 'include') include.push(withIntent(groupLabel(groups.get(target.groupId), target.groupId), target));
    else if (target.type === 'exclude') exclude.push(groupLabel(groups.get(target.groupId), target.groupId));
    else if (target.type === 'configMgrCollection') include.push(`Configuration Manager collection ${target.collectionId}${describeFilter(target, filters)}`);
    else include.push(`${target.odataType || 'unrecognised target'}${describeFilter(target, filters)}`);
  }
  return [include.length > 0 ? `Include: ${include.join('; ')}` : '', exclude.length > 0 ? `Exclude: ${exclude.join('; ')}` : ''].filter(Boolean).join(' · ');
}

const STATUS_LABELS: Record<HygieneVerdict['kind'], string> = {
  unassigned: 'Never assigned',
  'exclusions-only': 'Exclusions only',
  'assigned-to-missing-or-empty-groups': 'Only deleted or empty groups',
  'assigned-to-restorable-deleted-groups': 'Only deleted or empty groups, one still restorable',
  'all-users-and-all-devices': 'All users and All devices',
  'unknown-groups': 'Could not check',
  'unknown-assignments': 'Could not check: Graph returned no assignments for it',
  'could-not-check': 'Could not check',
  ok: 'OK',
};

const STATUS_ORDER: Record<HygieneVerdict['kind'], number> = {
  'assigned-to-missing-or-empty-groups': 0,
  'assigned-to-restorable-deleted-groups': 0,
  'exclusions-only': 1,
  'all-users-and-all-devices': 2,
  unassigned: 3,
  'unknown-groups': 4,
  'unknown-assignments': 4,
  'could-not-check': 4,
  ok: 5,
};

function findingDetail(verdict: HygieneVerdict, kindLabel: string): string {
  const more = 'detail' in verdict && verdict.detail ? ` ${verdict.detail}` : '';
  switch (verdict.kind) {
    case 'unassigned':
      return `${kindLabel} has no assignment, so it applies to nobody.${more}`;
    case 'exclusions-only':
      return `${kindLabel} is assigned only through exclusion groups; an exclusion only subtracts, so it applies to nobody.${more}`;
    case 'assigned-to-missing-or-empty-groups':
      return `Every included group is deleted or empty: ${verdict.groups.map((group) => groupLabel(group, group.id)).join(', ')}.${more}`;
    case 'assigned-to-restorable-deleted-groups':
      return `Every included group is deleted or empty, and a deleted one can still be restored in Microsoft Entra, after which the assignment targets it again: ${verdict.groups.map((group) => groupLabel(group, group.id)).join(', ')}.${more}`;
    case 'all-users-and-all-devices': {
      const { allUsers, allDevices } = verdict.intents;
      // Intune resolves an app's intent before its filters (apps-deploy), so different intents conflict.
      if (allUsers && allDevices && allUsers !== allDevices)
        return `Assigned to both All users and All devices with different intents (All users: ${allUsers}; All devices: ${allDevices}); Intune resolves the intent before any filter, so which one a device gets is hard to predict.${more}`;
      const intents = allUsers || allDevices ? ` (All users: ${allUsers ?? 'n/a'}; All devices: ${allDevices ?? 'n/a'})` : '';
      return `Assigned to both All users and All devices, and no filter keeps the two apart, so devices get it through both targets${intents}.${more}`;
    }
    default:
      return '';
  }
}

/** A finding's status is as loud as the finding; an object that could not be checked has no verdict. */
function statusTone(verdict: HygieneVerdict): CellTone {
  if (verdict.kind === 'ok') return 'ok';
  if (verdict.kind === 'unknown-groups' || verdict.kind === 'unknown-assignments' || verdict.kind === 'could-not-check') return 'neutral';
  return severityTone(ASSIGNMENT_FINDING_KINDS[verdict.kind].severity);
}

export function deriveAssignmentHygiene(records: AssignmentRecords, _context: DeriveContext): DerivedReport<AssignmentFindingKind> {
  const rows: Array<ReportRow & { order: number }> = [];
  const findings: FindingDraft<AssignmentFindingKind>[] = [];
  const uncheckedSubjects: Array<UncheckedSubject<AssignmentFindingKind>> = [];
  const apps = new Map(records.objects.filter((object) => object.kind === 'mobileApp').map((object) => [object.id.toLowerCase(), object]));
  const edges = records.relationships.ok ? uniqueEdges(records.relationships.value) : null;
  const appGraph: AppGraph | null = edges ? { apps, edges, groups: records.groups, autoInstalled: autoInstallReach(apps, edges, records.groups) } : null;
  for (const object of records.objects) {
    let verdict = classifyAssignments(object.targets, records.groups, {
      filters: records.filters,
      readOnV1: object.readOnV1 === true,
      betaAssignmentsFailure: object.betaAssignmentsFailure,
    });
    if (object.kind === 'mobileApp') {
      if (appGraph) verdict = relationshipVerdict(appGraph, object, verdict);
      // Without the relationships, an unassigned Win32 app may still be installed as a dependency;
      // any other app cannot be one, so its verdict stands.
      else if (verdict.kind === 'unassigned' && WIN32_APP_TYPES.has(object.odataType ?? ''))
        verdict = { kind: 'could-not-check', reason: "the app relationships could not be read; it may be installed as another app's dependency", unchecked: 'unassigned' };
    }
    const kindLabel = KIND_LABELS[object.kind];
    const status =
      verdict.kind === 'unknown-groups'
        ? `Could not check: ${plural(verdict.groups.length, 'group')} could not be read`
        : verdict.kind === 'could-not-check'
          ? `Could not check: ${verdict.reason}`
          : verdict.kind === 'ok' && verdict.note
            ? verdict.note
            : STATUS_LABELS[verdict.kind];
    rows.push({
      id: object.id,
      type: kindLabel,
      name: object.name,
      assignments: describeTargets(object.targets, records.groups, records.filters),
      status,
      statusTone: statusTone(verdict),
      link: object.link,
      ...(object.linkLabel ? { linkLabel: object.linkLabel } : {}),
      // The object's scope tags, no column's: what the viewer scope shows the row by (src/core/viewer-scope/scope-report.ts).
      [ROW_SCOPE_TAGS_KEY]: scopeTagsCell(object.roleScopeTagIds),
      order: STATUS_ORDER[verdict.kind],
    });
    if (verdict.kind === 'unknown-groups' || verdict.kind === 'unknown-assignments' || verdict.kind === 'could-not-check') {
      // What an earlier load found for this object and this one could not decide stays open, not
      // resolved: every kind when Graph gave no assignments, else the one kind left open.
      const kinds: AssignmentFindingKind[] =
        verdict.kind === 'unknown-assignments'
          ? ASSIGNMENT_KINDS
          : verdict.kind === 'unknown-groups'
            ? ['assigned-to-missing-or-empty-groups', 'assigned-to-restorable-deleted-groups']
            : [verdict.unchecked];
      for (const kind of kinds) uncheckedSubjects.push({ kind, subjectId: object.id, ruleKey: '' });
    } else if (verdict.kind !== 'ok') {
      findings.push({ kind: verdict.kind, subjectId: object.id, subjectName: `${kindLabel}: ${object.name}`, detail: findingDetail(verdict, kindLabel) });
    }
  }
  rows.sort((a, b) => a.order - b.order || compareText(String(a.type), String(b.type)) || compareText(String(a.name), String(b.name)));
  const { catalogueApps, builtInScripts } = records.leftOut;
  const leftOut = [
    catalogueApps > 0 ? plural(catalogueApps, 'Microsoft catalogue app') : '',
    builtInScripts > 0 ? plural(builtInScripts, 'built-in remediation script') : '',
  ].filter(Boolean);
  const notices = [
    leftOut.length > 0 ? `Left out, as the Intune admin center leaves them out: ${leftOut.join(' and ')} (Microsoft's own, present in every tenant).` : '',
    records.betaCoverage ? '' : V1_COVERAGE_NOTICE,
    records.relationships.ok
      ? ''
      : `Win32 app dependencies and supersedence could not be read (${records.relationships.reason}), so an unassigned Win32 app is shown as not checked: it may be installed as another app's dependency.`,
    records.filters.ok
      ? ''
      : `Assignment filters could not be read (${records.filters.reason}), so an object assigned to both All users and All devices through filters is shown as not checked.`,
  ].filter(Boolean);
  return {
    state: 'loaded',
    notice: notices.length > 0 ? notices.join(' ') : null,
    columns: [
      { key: 'type', label: 'Type', available: true, format: 'text' },
      { key: 'name', label: 'Name', available: true, format: 'text', role: 'name' },
      { key: 'status', label: 'Status', available: true, format: 'status', toneKey: 'statusTone' },
      { key: 'assignments', label: 'Assignments', available: true, format: 'text', role: 'wide' },
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
    uncheckedSubjects,
  };
}
