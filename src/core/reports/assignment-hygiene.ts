import type * as Graph from '@microsoft/microsoft-graph-types';
import { GroupResolver, describeGroup, throwIfGroupsForbidden } from '../directory/group-lookup.js';
import type { GroupLookup } from '../directory/group-lookup.js';
import { asString, compareText, plural } from './graph-values.js';
import { intuneLinks } from './intune-links.js';
import type { FindingKindTable } from '../findings/finding-kinds.js';
import type { CellTone, DeriveContext, DerivedReport, FindingDraft, LoadContext, ReportDefinition, ReportRow } from './report-model.js';
import { LOADING_TEXT, severityTone } from './report-model.js';
import { loadSideBySide } from './side-by-side.js';

/** The finding kinds this report states (docs/contract.md, "Finding kinds"). */
const ASSIGNMENT_FINDING_KINDS = {
  'assigned-to-missing-or-empty-groups': {
    label: 'Assigned only to deleted or empty groups',
    severity: 'medium',
    remediation: {
      why: 'Every group the object is assigned to is deleted or has no members, so the profile, policy, app or script reaches no one. Whoever believes it protects or serves those users or devices is wrong.',
      steps: [
        "Open the object from the finding's link and go to Properties > Assignments; the finding's detail names each group and whether it was deleted or is empty.",
        'Deleted group: in the Microsoft Entra admin center, look for it under Groups > Deleted groups. If it is there and the deletion was a mistake, restore it, which restores its assignments; otherwise assign the group that should now get the object.',
        "Empty group: check its Members. For a dynamic group, check the rule under Dynamic membership rules > Validate rules and the membership processing status; an empty dynamic group may fill later, an empty assigned group won't.",
        'If nobody should get the object any more, remove the assignment and delete the object rather than leave it pointed at nothing.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  'all-users-and-all-devices': {
    label: 'Assigned to All users and All devices',
    severity: 'medium',
    remediation: {
      why: "Every device gets the object twice: as a device, and through its signed-in user. Intune doesn't evaluate how users relate to devices, so different intents on the two targets (an app Required for one and Uninstall for the other) give results nobody can predict.",
      steps: [
        'Decide whether the object belongs to the device (most configuration and compliance policies, scripts, apps installed for the system) or to the user (settings and apps that follow the person), and keep only that target.',
        "Open the object from the finding's link, go to Properties > Assignments > Edit, remove All users or All devices, and select Review + save.",
        "For an app, settle on one intent: the finding's detail shows the intent of each target, and Required on one with Uninstall or Available on the other must not stay.",
        'If some users or devices must not get it, exclude a group of the same kind as the remaining target: device groups with All devices, user groups with All users.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  unassigned: {
    label: 'Not assigned to anyone',
    severity: 'low',
    remediation: {
      why: 'An object with no assignment applies to nobody. It is unfinished work, a leftover from a migration, or a policy someone believes is in force; it clutters the admin center and can be assigned by mistake later.',
      steps: [
        "Open the object from the finding's link and check when it was created and last modified, and whether a newer object replaced it.",
        'If it should apply, go to Properties > Assignments > Edit, add the intended group (or All users or All devices), and select Review + save; pilot it on a small group first if it has never been deployed.',
        'If it is obsolete, note or export its settings and delete it.',
      ],
      sources: [{ title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' }],
    },
  },
  'exclusions-only': {
    label: 'Assigned with exclusions only',
    severity: 'low',
    remediation: {
      why: 'An exclusion only removes users or devices from what is included. With exclusions and no included group the object reaches no one, usually because an include was removed or a group landed in the wrong list.',
      steps: [
        "Open the object from the finding's link and go to Properties > Assignments; every group it lists is under Excluded groups.",
        'Check Tenant administration > Audit logs for the object to see whether an included group was removed, and by whom.',
        'Under Included groups, add the group that should get the object (or All users or All devices); keep an exclusion only if it is the same kind of group, users or devices, as the include.',
        'If nobody should get the object, remove the exclusions and delete it.',
      ],
      sources: [
        { title: 'Include and exclude app assignments in Microsoft Intune', url: 'https://learn.microsoft.com/en-us/mem/intune/apps/apps-inc-exl-assignments' },
        {
          title: 'exclusionGroupAssignmentTarget resource type',
          url: 'https://learn.microsoft.com/en-us/graph/api/resources/intune-deviceconfig-exclusiongroupassignmenttarget?view=graph-rest-beta',
        },
      ],
    },
  },
} as const satisfies FindingKindTable;
type AssignmentFindingKind = keyof typeof ASSIGNMENT_FINDING_KINDS;

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

const KIND_LABELS: Record<AssignableKind, string> = {
  deviceConfiguration: 'Configuration profile',
  compliancePolicy: 'Compliance policy',
  settingsCatalogPolicy: 'Settings catalog policy',
  mobileApp: 'App',
  platformScript: 'Platform script',
  remediation: 'Remediation',
};

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

/**
 * What the specification's `/v1.0` reads cannot show: Graph's v1.0 schema does not declare these
 * types, and its lists leave them out without a word (the full list: src/sim/v1-schema.ts, from
 * Microsoft's published v1.0 and beta metadata).
 */
export const V1_COVERAGE_NOTICE =
  "Not shown: Graph's /v1.0 lists leave out every profile, policy and app type that only its beta schema has, " +
  'among them Wi-Fi, VPN, certificate (SCEP, PKCS, PFX, trusted root), email and wired-network profiles, Android Enterprise ' +
  'fully managed and AOSP profiles, Windows kiosk, domain join and delivery optimisation profiles; Android Enterprise device ' +
  'owner and AOSP compliance policies; Microsoft 365 Apps, Microsoft Store (WinGet), macOS PKG and managed Google Play apps. ' +
  'Set GRAPH_BETA_COVERAGE=true to read these lists on /beta and include them.';

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

async function loadAssignments({ graph, onProgress }: LoadContext): Promise<AssignmentRecords> {
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

export type HygieneVerdict =
  | { kind: 'unassigned' }
  | { kind: 'exclusions-only' }
  | { kind: 'assigned-to-missing-or-empty-groups'; groups: GroupLookup[] }
  | { kind: 'all-users-and-all-devices'; intents: { allUsers: string | null; allDevices: string | null } }
  | { kind: 'unknown-groups'; groups: GroupLookup[] }
  | { kind: 'unknown-assignments' }
  | { kind: 'ok' };

/** The rules of docs/finding-rules.md, report 2, for one object. */
export function classifyAssignments(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>): HygieneVerdict {
  if (targets === null) return { kind: 'unknown-assignments' };
  if (targets.length === 0) return { kind: 'unassigned' };
  const allUsers = targets.find((target) => target.type === 'allUsers');
  const allDevices = targets.find((target) => target.type === 'allDevices');
  if (allUsers && allDevices) return { kind: 'all-users-and-all-devices', intents: { allUsers: allUsers.intent, allDevices: allDevices.intent } };
  if (targets.every((target) => target.type === 'exclude')) return { kind: 'exclusions-only' };
  // Any broad or unresolvable include reaches someone (or might): never a finding.
  if (targets.some((target) => target.type === 'allUsers' || target.type === 'allDevices' || target.type === 'configMgrCollection' || target.type === 'other'))
    return { kind: 'ok' };
  const included = targets
    .filter((target) => target.type === 'include')
    .map((target) => groups.get(target.groupId) ?? { state: 'unknown' as const, id: target.groupId, error: { message: 'not looked up' } });
  if (included.some((group) => group.state === 'found' && !group.isEmpty)) return { kind: 'ok' };
  const unknown = included.filter((group) => group.state === 'unknown');
  if (unknown.length > 0) return { kind: 'unknown-groups', groups: unknown };
  return { kind: 'assigned-to-missing-or-empty-groups', groups: included };
}

function groupLabel(group: GroupLookup | undefined, id: string): string {
  return describeGroup(group ?? { state: 'unknown', id, error: { message: 'not looked up' } });
}

function describeTargets(targets: readonly AssignmentTarget[] | null, groups: ReadonlyMap<string, GroupLookup>): string {
  if (targets === null) return 'Not returned by Graph';
  if (targets.length === 0) return 'None';
  const withIntent = (text: string, intent: string | null) => (intent ? `${text} [${intent}]` : text);
  const include: string[] = [];
  const exclude: string[] = [];
  for (const target of targets) {
    if (target.type === 'allUsers') include.push(withIntent('All users', target.intent));
    else if (target.type === 'allDevices') include.push(withIntent('All devices', target.intent));
    else if (target.type === 'include') include.push(withIntent(groupLabel(groups.get(target.groupId), target.groupId), target.intent));
    else if (target.type === 'exclude') exclude.push(groupLabel(groups.get(target.groupId), target.groupId));
    else if (target.type === 'configMgrCollection') include.push(`Configuration Manager collection ${target.collectionId}`);
    else include.push(target.odataType || 'unrecognised target');
  }
  return [include.length > 0 ? `Include: ${include.join('; ')}` : '', exclude.length > 0 ? `Exclude: ${exclude.join('; ')}` : ''].filter(Boolean).join(' · ');
}

const STATUS_LABELS: Record<HygieneVerdict['kind'], string> = {
  unassigned: 'Never assigned',
  'exclusions-only': 'Exclusions only',
  'assigned-to-missing-or-empty-groups': 'Only deleted or empty groups',
  'all-users-and-all-devices': 'All users and All devices',
  'unknown-groups': 'Could not check',
  'unknown-assignments': 'Could not check: Graph returned no assignments for it',
  ok: 'OK',
};

const STATUS_ORDER: Record<HygieneVerdict['kind'], number> = {
  'assigned-to-missing-or-empty-groups': 0,
  'exclusions-only': 1,
  'all-users-and-all-devices': 2,
  unassigned: 3,
  'unknown-groups': 4,
  'unknown-assignments': 4,
  ok: 5,
};

function findingDetail(verdict: HygieneVerdict, kindLabel: string): string {
  switch (verdict.kind) {
    case 'unassigned':
      return `${kindLabel} has no assignment, so it applies to nobody.`;
    case 'exclusions-only':
      return `${kindLabel} is assigned only through exclusion groups; an exclusion only subtracts, so it applies to nobody.`;
    case 'assigned-to-missing-or-empty-groups':
      return `Every included group is deleted or empty: ${verdict.groups.map((group) => groupLabel(group, group.id)).join(', ')}.`;
    case 'all-users-and-all-devices': {
      const intents =
        verdict.intents.allUsers || verdict.intents.allDevices ? ` (All users: ${verdict.intents.allUsers ?? 'n/a'}; All devices: ${verdict.intents.allDevices ?? 'n/a'})` : '';
      return `Assigned to both All users and All devices, so it can apply twice and conflict${intents}.`;
    }
    default:
      return '';
  }
}

/** A finding's status is as loud as the finding; an object that could not be checked has no verdict. */
function statusTone(verdict: HygieneVerdict): CellTone {
  if (verdict.kind === 'ok') return 'ok';
  if (verdict.kind === 'unknown-groups' || verdict.kind === 'unknown-assignments') return 'neutral';
  return severityTone(ASSIGNMENT_FINDING_KINDS[verdict.kind].severity);
}

export function deriveAssignmentHygiene(records: AssignmentRecords, _context: DeriveContext): DerivedReport<AssignmentFindingKind> {
  const rows: Array<ReportRow & { order: number }> = [];
  const findings: FindingDraft<AssignmentFindingKind>[] = [];
  for (const object of records.objects) {
    const verdict = classifyAssignments(object.targets, records.groups);
    const kindLabel = KIND_LABELS[object.kind];
    const status =
      verdict.kind === 'unknown-groups'
        ? `Could not check: ${verdict.groups.length} group${verdict.groups.length === 1 ? '' : 's'} could not be read`
        : STATUS_LABELS[verdict.kind];
    rows.push({
      id: object.id,
      type: kindLabel,
      name: object.name,
      assignments: describeTargets(object.targets, records.groups),
      status,
      statusTone: statusTone(verdict),
      link: object.link,
      order: STATUS_ORDER[verdict.kind],
    });
    if (verdict.kind !== 'ok' && verdict.kind !== 'unknown-groups' && verdict.kind !== 'unknown-assignments') {
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
  ].filter(Boolean);
  return {
    state: 'loaded',
    notice: notices.length > 0 ? notices.join(' ') : null,
    columns: [
      { key: 'type', label: 'Type', available: true, format: 'text' },
      { key: 'name', label: 'Name', available: true, format: 'text' },
      { key: 'status', label: 'Status', available: true, format: 'status', toneKey: 'statusTone' },
      { key: 'assignments', label: 'Assignments', available: true, format: 'text' },
    ],
    rows: rows.map(({ order: _order, ...row }) => row),
    findings,
  };
}

export const assignmentHygieneReport: ReportDefinition<AssignmentRecords, AssignmentFindingKind> = {
  id: 'assignment-hygiene',
  title: 'Assignment Hygiene',
  summary:
    'Configuration profiles, compliance policies, settings catalog policies, apps and scripts that apply to nobody (never assigned, exclusions only, only deleted or empty groups), and objects assigned to both All users and All devices.',
  // The current Graph pages require DeviceManagementScripts.Read.All for both script lists (docs/finding-rules.md, report 2).
  permissions: ['DeviceManagementConfiguration.Read.All', 'DeviceManagementApps.Read.All', 'DeviceManagementScripts.Read.All', 'Group.Read.All'],
  prerequisites: ['An Intune licence for the tenant.'],
  beta: false,
  navigationLabel: 'Assignment hygiene',
  botNames: ['assignment hygiene', 'assignments', 'hygiene', 'unassigned'],
  botTopics: [
    'assignment',
    'assigned',
    'not assigned',
    'unassigned',
    'exclusion',
    'exclusions',
    'excluded',
    'empty group',
    'empty groups',
    'deleted group',
    'deleted groups',
    'all users',
    'all devices',
    'orphaned',
    'orphan',
    'targeted',
  ],
  botDescription: 'Policies, apps and scripts that apply to nobody',
  tables: { '': 'Policies, apps and scripts' },
  pending: { starting: LOADING_TEXT, fetching: LOADING_TEXT },
  charts: [],
  findingKinds: ASSIGNMENT_FINDING_KINDS,
  optionalSources: [],
  load: loadAssignments,
  derive: deriveAssignmentHygiene,
};
