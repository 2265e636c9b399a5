/**
 * What applies to a managed device, a user or a group, and why: pure rules over report 2's
 * assignment records and the members of the groups they name (docs/finding-rules.md, "What
 * applies"). Nothing here reads Graph. A group that could not be read makes the answer unknown,
 * never "does not apply".
 */

import type { AssignableKind, AssignableObject, AssignmentFilterInfo, AssignmentTarget } from '../reports/assignment-hygiene/load.js';
import type { OptionalRead } from '../reports/optional-read.js';
import { evaluateFilterRule } from './filter-rule.js';
import type { FilterDeviceProperties } from './filter-rule.js';

/** Who the question is about, as the app resolved it. */
export type AppliesSubject =
  | {
      kind: 'device';
      /** The managed device id (Intune). */
      id: string;
      name: string;
      /**
       * The device's Entra object id, which group member lists name. Null when it cannot be told:
       * the managed device carries the Entra `deviceId` (`azureADDeviceId`), not the object id, and
       * a member list shows a device's `deviceId` only to an app that may read devices.
       */
      entraObjectId: string | null;
      /** The primary user's Entra object id (`managedDevice.userId`), through whom user-targeted assignments apply. */
      primaryUserId: string | null;
      primaryUserName: string | null;
      properties: FilterDeviceProperties;
      link: string;
    }
  | { kind: 'user'; id: string; name: string }
  | { kind: 'group'; id: string; name: string };

/** The direct members of one group, as `/groups/{id}/members` lists them, or why they could not be read. */
export type GroupMembers =
  | { state: 'read'; id: string; displayName: string; userIds: ReadonlySet<string>; deviceIds: ReadonlySet<string>; groupIds: readonly string[] }
  | { state: 'unknown'; id: string; displayName: string | null; reason: string };

export type ObjectTypeLabel =
  'Configuration profiles' | 'Settings catalog policies' | 'Endpoint security policies' | 'Compliance policies' | 'Apps' | 'Platform scripts' | 'Remediations';

/** One step of the way an assignment reaches the subject. */
export type PathStep =
  | { kind: 'allUsers'; words: string }
  | { kind: 'allDevices'; words: string }
  | { kind: 'group'; id: string; name: string; words: string }
  | { kind: 'primaryUser'; id: string; name: string; words: string }
  | { kind: 'subject'; id: string; name: string; words: string };

export interface AppliedFilter {
  mode: 'include' | 'exclude';
  id: string | null;
  name: string;
  /** `in`: it lets the object in; `out`: it keeps it out; `depends`: the device's properties it reads are not known. */
  verdict: 'in' | 'out' | 'depends';
  words: string;
}

export type AppliesVerdict = 'applies' | 'excluded' | 'dependsOnFilter' | 'unknown';

export interface AppliesEntry {
  objectId: string;
  name: string;
  kind: AssignableKind;
  typeLabel: ObjectTypeLabel;
  link: string;
  verdict: AppliesVerdict;
  /** App intent (`required`, `available`, `uninstall`, …) of the assignment that decides; null for other kinds. */
  intent: string | null;
  /** The way it reaches the subject, from the assignment's target down to the subject. */
  path: PathStep[];
  /** What takes it out: an exclusion group (with its path) or a filter. */
  exclusion?: { kind: 'group'; path: PathStep[]; words: string } | { kind: 'filter'; filter: AppliedFilter; words: string };
  filter?: AppliedFilter;
  /** The verdict in plain English, for a card, the tab and the CLI. */
  words: string;
  /** What could not be known, in plain English (e.g. a filter `/v1.0` does not show). */
  caveats: string[];
}

export interface AppliesGroup {
  typeLabel: ObjectTypeLabel;
  entries: AppliesEntry[];
}

export interface AppliesAnswer {
  subject: AppliesSubject;
  groups: AppliesGroup[];
  counts: Record<AppliesVerdict, number>;
  /** Why conflicts between policies are not shown: the records read carry no setting ids. */
  notes: string[];
}

export interface AppliesRecords {
  objects: readonly AssignableObject[];
  filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo & { rule?: string | null }>>;
  /** Members of every group read, by lower-case id. */
  members: ReadonlyMap<string, GroupMembers>;
  /** Names of groups as report 2 found them, by lower-case id, for a group whose members were not read. */
  groupNames?: ReadonlyMap<string, string>;
}

export const TYPE_ORDER: readonly ObjectTypeLabel[] = [
  'Configuration profiles',
  'Settings catalog policies',
  'Endpoint security policies',
  'Compliance policies',
  'Apps',
  'Platform scripts',
  'Remediations',
];

/** Nesting followed below an assigned group; deeper is unknown, never "not a member". */
export const MAX_NESTING_DEPTH = 5;

export function typeLabel(object: Pick<AssignableObject, 'kind'> & { templateFamily?: string | null }): ObjectTypeLabel {
  switch (object.kind) {
    case 'deviceConfiguration':
      return 'Configuration profiles';
    case 'settingsCatalogPolicy':
      // Endpoint security policies are configuration policies whose template family starts with
      // `endpointSecurity` (deviceManagementConfigurationTemplateFamily, Graph beta).
      return object.templateFamily?.startsWith('endpointSecurity') ? 'Endpoint security policies' : 'Settings catalog policies';
    case 'compliancePolicy':
      return 'Compliance policies';
    case 'mobileApp':
      return 'Apps';
    case 'platformScript':
      return 'Platform scripts';
    default:
      return 'Remediations';
  }
}

type Membership = { kind: 'member'; path: PathStep[] } | { kind: 'notMember' } | { kind: 'unknown'; path: PathStep[]; reason: string };

/** The ids that count as the subject in a member list: the subject itself and, for a device, its primary user. */
interface Seekers {
  userIds: Map<string, PathStep[]>;
  deviceId: string | null;
  /** A device whose Entra object id is not known: a group with device members cannot be told. */
  deviceUnknown: boolean;
  groupId: string | null;
}

function seekers(subject: AppliesSubject): Seekers {
  if (subject.kind === 'device') {
    const userIds = new Map<string, PathStep[]>();
    if (subject.primaryUserId) {
      const name = subject.primaryUserName ?? subject.primaryUserId;
      userIds.set(subject.primaryUserId.toLowerCase(), [{ kind: 'primaryUser', id: subject.primaryUserId, name, words: `its primary user ${name}` }]);
    }
    return { userIds, deviceId: subject.entraObjectId?.toLowerCase() ?? null, deviceUnknown: subject.entraObjectId === null, groupId: null };
  }
  if (subject.kind === 'user') {
    return { userIds: new Map([[subject.id.toLowerCase(), []]]), deviceId: null, deviceUnknown: false, groupId: null };
  }
  return { userIds: new Map(), deviceId: null, deviceUnknown: false, groupId: subject.id.toLowerCase() };
}

function groupStep(id: string, records: AppliesRecords): PathStep {
  const members = records.members.get(id);
  const name = (members?.displayName ?? records.groupNames?.get(id) ?? null) || `group ${id}`;
  return { kind: 'group', id, name, words: name };
}

/**
 * Whether the subject is in `groupId`, directly or through nested groups, and the chain that puts it
 * there. A member found wins over an unread branch; an unread branch wins over "not a member".
 */
function membership(groupId: string, records: AppliesRecords, seek: Seekers): Membership {
  let unknown: Membership | null = null;
  const visit = (id: string, chain: PathStep[], seen: Set<string>): Membership | null => {
    const step = groupStep(id, records);
    const path = [...chain, step];
    if (seek.groupId === id) return { kind: 'member', path };
    const members = records.members.get(id);
    if (!members || members.state === 'unknown') {
      unknown ??= { kind: 'unknown', path, reason: members?.state === 'unknown' ? members.reason : 'its members were not read' };
      return null;
    }
    for (const userId of members.userIds) {
      const via = seek.userIds.get(userId);
      if (via) return { kind: 'member', path: [...path, ...via] };
    }
    if (seek.deviceId && members.deviceIds.has(seek.deviceId)) return { kind: 'member', path };
    if (seek.deviceUnknown && members.deviceIds.size > 0) {
      unknown ??= { kind: 'unknown', path, reason: 'it has devices as members, and which Entra device is this one cannot be told with the permissions this app has' };
    }
    if (path.length > MAX_NESTING_DEPTH) {
      if (members.groupIds.length > 0) unknown ??= { kind: 'unknown', path, reason: `its groups are nested deeper than ${MAX_NESTING_DEPTH} levels` };
      return null;
    }
    for (const nested of members.groupIds) {
      if (seen.has(nested)) continue;
      const found = visit(nested, path, new Set([...seen, nested]));
      if (found) return found;
    }
    return null;
  };
  const id = groupId.toLowerCase();
  return visit(id, [], new Set([id])) ?? unknown ?? { kind: 'notMember' };
}

function subjectStep(subject: AppliesSubject): PathStep {
  return { kind: 'subject', id: subject.id, name: subject.name, words: subject.name };
}

function targetMembership(target: AssignmentTarget, subject: AppliesSubject, records: AppliesRecords, seek: Seekers): Membership {
  switch (target.type) {
    case 'allDevices':
      // All devices reaches every managed device; a user or a group only through their devices.
      return subject.kind === 'device' ? { kind: 'member', path: [{ kind: 'allDevices', words: 'All devices' }] } : { kind: 'notMember' };
    case 'allUsers':
      if (subject.kind === 'user') return { kind: 'member', path: [{ kind: 'allUsers', words: 'All users' }] };
      if (subject.kind === 'device' && subject.primaryUserId) {
        return { kind: 'member', path: [{ kind: 'allUsers', words: 'All users' }, ...seek.userIds.get(subject.primaryUserId.toLowerCase())!] };
      }
      return { kind: 'notMember' };
    case 'include':
    case 'exclude':
      return membership(target.groupId, records, seek);
    default:
      return { kind: 'notMember' };
  }
}

function filterOf(target: AssignmentTarget, subject: AppliesSubject, records: AppliesRecords, readOnV1: boolean): { filter?: AppliedFilter; caveat?: string } {
  if (target.filter === undefined) {
    return {
      caveat: readOnV1
        ? 'Read on /v1.0, which does not show assignment filters: a filter could still keep it out.'
        : 'Graph sent this assignment without its filter fields: a filter could still keep it out.',
    };
  }
  if (target.filter.mode === 'none') return {};
  if (target.filter.mode === 'unrecognised') {
    return {
      filter: { mode: 'include', id: null, name: `a filter of type "${target.filter.value}"`, verdict: 'depends', words: `depends on a filter of type "${target.filter.value}"` },
    };
  }
  const { mode, id } = target.filter;
  const info = id && records.filters.ok ? records.filters.value.get(id) : undefined;
  const name = info?.displayName ?? (id ? `filter ${id}` : 'a filter');
  const rule = subject.kind === 'device' ? evaluateFilterRule(info?.rule, subject.properties) : { kind: 'depends' as const, reason: 'a filter is evaluated on each device' };
  // Include mode: in when the rule matches. Exclude mode: in when it does not
  // (learn.microsoft.com/mem/intune/fundamentals/filters, "Include filtered devices / Exclude filtered devices").
  const verdict = rule.kind === 'depends' ? 'depends' : (rule.kind === 'match') === (mode === 'include') ? 'in' : 'out';
  const how = mode === 'include' ? 'include filter' : 'exclude filter';
  const words =
    verdict === 'in'
      ? `${how} ${name} lets it in`
      : verdict === 'out'
        ? `${how} ${name} keeps it out`
        : `depends on filter ${name} (${rule.kind === 'depends' ? rule.reason : ''})`;
  return { filter: { mode, id, name, verdict, words } };
}

function pathWords(path: readonly PathStep[]): string {
  return path.map((step) => step.words).join(' → ');
}

/** One object's verdict for the subject, or null when none of its assignments reaches it. */
export function deriveEntry(object: AssignableObject & { templateFamily?: string | null }, subject: AppliesSubject, records: AppliesRecords): AppliesEntry | null {
  const base = { objectId: object.id, name: object.name, kind: object.kind, typeLabel: typeLabel(object), link: object.link };
  if (object.targets === null) {
    return { ...base, verdict: 'unknown', intent: null, path: [], words: 'Its assignments could not be read.', caveats: [] };
  }
  const seek = seekers(subject);
  const end = subject.kind === 'group' ? [] : [subjectStep(subject)];
  const withEnd = (path: PathStep[]) => (path.at(-1)?.kind === 'subject' || subject.kind === 'group' ? path : [...path, ...end]);
  const includes = object.targets.filter((target) => target.type === 'include' || target.type === 'allUsers' || target.type === 'allDevices');
  const excludes = object.targets.filter((target) => target.type === 'exclude');
  const reached = includes.map((target) => ({ target, member: targetMembership(target, subject, records, seek) })).filter(({ member }) => member.kind !== 'notMember');
  if (reached.length === 0) return null;
  const intentOf = (target: AssignmentTarget) => (object.kind === 'mobileApp' ? target.intent : null);
  // Exclusion wins over inclusion, whatever the filter (learn.microsoft.com/mem/intune/apps/apps-inclusion-exclusion,
  // learn.microsoft.com/mem/intune/configuration/device-profile-assign, "Exclude groups").
  const excluded = excludes.map((target) => ({ target, member: targetMembership(target, subject, records, seek) }));
  const firstIncluded = reached.find(({ member }) => member.kind === 'member') ?? reached[0]!;
  const hit = excluded.find(({ member }) => member.kind === 'member');
  if (hit && hit.member.kind === 'member') {
    const path = withEnd(hit.member.path);
    return {
      ...base,
      verdict: 'excluded',
      intent: intentOf(firstIncluded.target),
      path: withEnd(firstIncluded.member.kind === 'notMember' ? [] : firstIncluded.member.path),
      exclusion: { kind: 'group', path, words: `excluded through ${pathWords(path)}` },
      words: `Excluded: ${pathWords(path)}.`,
      caveats: [],
    };
  }
  const unknownExclusion = excluded.find(({ member }) => member.kind === 'unknown');
  const members = reached.filter(({ member }) => member.kind === 'member').map((entry) => ({ ...entry, ...filterOf(entry.target, subject, records, object.readOnV1 === true) }));
  const passing = members.find(({ filter }) => filter === undefined || filter.verdict === 'in');
  const depending = members.find(({ filter }) => filter?.verdict === 'depends');
  const unknownInclusion = reached.find(({ member }) => member.kind === 'unknown');
  if (passing) {
    const path = withEnd(passing.member.kind === 'member' ? passing.member.path : []);
    const caveats = passing.caveat ? [passing.caveat] : [];
    if (unknownExclusion && unknownExclusion.member.kind === 'unknown') {
      const exclusionPath = unknownExclusion.member.path;
      return {
        ...base,
        verdict: 'unknown',
        intent: intentOf(passing.target),
        path,
        ...(passing.filter ? { filter: passing.filter } : {}),
        words: `Targets it through ${pathWords(path)}, but whether exclusion group ${pathWords(exclusionPath)} takes it out could not be told: ${unknownExclusion.member.reason}.`,
        caveats,
      };
    }
    return {
      ...base,
      verdict: 'applies',
      intent: intentOf(passing.target),
      path,
      ...(passing.filter ? { filter: passing.filter } : {}),
      words: `Applies through ${pathWords(path)}${passing.filter ? `; ${passing.filter.words}` : ''}.`,
      caveats,
    };
  }
  if (depending) {
    const path = withEnd(depending.member.kind === 'member' ? depending.member.path : []);
    return {
      ...base,
      verdict: 'dependsOnFilter',
      intent: intentOf(depending.target),
      path,
      filter: depending.filter!,
      words: `Targets it through ${pathWords(path)}; it ${depending.filter!.words}.`,
      caveats: depending.caveat ? [depending.caveat] : [],
    };
  }
  if (unknownInclusion && unknownInclusion.member.kind === 'unknown') {
    const path = unknownInclusion.member.path;
    return {
      ...base,
      verdict: 'unknown',
      intent: intentOf(unknownInclusion.target),
      path,
      words: `Assigned to ${pathWords(path)}, whose membership could not be told: ${unknownInclusion.member.reason}.`,
      caveats: [],
    };
  }
  // Every inclusion that reaches it has a filter that keeps it out.
  const out = members[0]!;
  const path = withEnd(out.member.kind === 'member' ? out.member.path : []);
  return {
    ...base,
    verdict: 'excluded',
    intent: intentOf(out.target),
    path,
    filter: out.filter!,
    exclusion: { kind: 'filter', filter: out.filter!, words: out.filter!.words },
    words: `Targets it through ${pathWords(path)}, but the ${out.filter!.words}.`,
    caveats: [],
  };
}

/** Every object that reaches the subject, grouped by object type in the admin center's order. */
export function deriveApplies(subject: AppliesSubject, records: AppliesRecords): AppliesAnswer {
  const counts: Record<AppliesVerdict, number> = { applies: 0, excluded: 0, dependsOnFilter: 0, unknown: 0 };
  const byType = new Map<ObjectTypeLabel, AppliesEntry[]>();
  for (const object of records.objects) {
    const entry = deriveEntry(object, subject, records);
    if (!entry) continue;
    counts[entry.verdict] += 1;
    byType.set(entry.typeLabel, [...(byType.get(entry.typeLabel) ?? []), entry]);
  }
  const groups = TYPE_ORDER.flatMap((label) => {
    const entries = byType.get(label);
    return entries ? [{ typeLabel: label, entries: entries.sort((a, b) => a.name.localeCompare(b.name)) }] : [];
  });
  return {
    subject,
    groups,
    counts,
    notes: ['Conflicts between policies are not shown: the assignments read do not say which settings each policy sets.'],
  };
}
