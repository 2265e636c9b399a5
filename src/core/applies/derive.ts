/**
 * What applies to a managed device, a user or a group, and why: pure rules over report 2's
 * assignment records and the members of the groups they name (docs/finding-rules.md, "What
 * applies"). Nothing here reads Graph. A group that could not be read makes the answer unknown,
 * never "does not apply".
 */

import { CONFLICTS_DEVICE_ONLY, deviceConflicts } from './conflicts.js';
import type { AppliesConflicts, ConflictSettings } from './conflicts.js';
import type { AssignableObject, AssignmentFilterInfo, AssignmentTarget } from '../reports/assignment-hygiene/records.js';
import { capitalise } from '../reports/graph-values.js';
import type { OptionalRead } from '../reports/optional-read.js';
import { decideFilters, filterOf } from './filters.js';
import { devicePlatform, objectPlatform, platformWords } from '../policy-settings/platform.js';
import type { AppliesEntry, AppliesGroup, AppliesPlatform, AppliesSubject, AppliesVerdict, GroupMembers, ObjectTypeLabel, PathStep, UndecidedCode } from './entry-types.js';
import { intentWords, resolveIntents } from './intents.js';
import { MAX_NESTING_DEPTH, OBJECT_TYPES_READ, TYPE_ORDER, typeLabel } from './object-types.js';

export interface AppliesAnswer {
  subject: AppliesSubject;
  groups: AppliesGroup[];
  counts: Record<AppliesVerdict, number>;
  /**
   * For a device: the settings its policies set differently (or alike), and which value Intune
   * applies; or why they could not be checked (conflicts.ts). Never "no conflicts" for what was not read.
   */
  conflicts: AppliesConflicts;
  /** Which object types were read, said under the answer. */
  notes: string[];
}

export interface AppliesRecords {
  objects: readonly AssignableObject[];
  filters: OptionalRead<ReadonlyMap<string, AssignmentFilterInfo & { rule?: string | null }>>;
  /** Members of every group read, by lower-case id. */
  members: ReadonlyMap<string, GroupMembers>;
  /** Names of groups as report 2 found them, by lower-case id, for a group whose members were not read. */
  groupNames?: ReadonlyMap<string, string>;
  /** What the settings catalog, endpoint security and baseline policies set (report 3's records), for a device's conflicts; absent, not read. */
  settings?: ConflictSettings;
}

/**
 * How a target reaches the subject: through a user (the subject, or a device's primary user),
 * through the device itself, through the group asked about, or, for a group that could not be
 * read, either way. Intune applies an exclusion only against an inclusion of the same group type
 * (docs/finding-rules.md, "What applies", "Mixed user and device groups").
 */
type Via = 'user' | 'device' | 'group' | 'either';

/** One way a group reaches the subject: the chain of groups and whether it reaches it as a user or as the device. */
interface Route {
  path: PathStep[];
  via: Via;
}

/**
 * A group reaches a device as a device, through its primary user, or both at once. A member keeps
 * every way found (`also`), and what could not be told of the other way (`doubt`), since an
 * exclusion counts against inclusions of the type it reaches the subject as, whichever the group
 * lists first: exclusion wins "in the following same group type scenarios: Including user groups
 * and excluding user groups; Including device groups and excluding device group" (Microsoft Learn,
 * "Assign policies in Microsoft Intune", "Exclude groups from a policy assignment",
 * https://learn.microsoft.com/intune/device-configuration/assign-device-profile). IntuneAssignmentChecker
 * (`Resolve-IACEffectiveAssignment`) likewise gives a group every source it reaches the subject
 * through (`User`, `Device`) and excludes when an exclusion shares any of them with the inclusion
 * (docs/finding-rules.md, "What applies", "A group holding both the device and its user").
 */
type Membership = { kind: 'member'; path: PathStep[]; via: Via; also?: Route; doubt?: Doubt } | { kind: 'notMember' } | ({ kind: 'unknown' } & Doubt);

/** What could not be told of a group on the way: where, why (as a code and in words), and for which group type. */
interface Doubt {
  path: PathStep[];
  code: Extract<UndecidedCode, 'membersUnread' | 'deviceNotIdentified' | 'nestedTooDeep'>;
  reason: string;
  via: Via;
}

/** Every way a member reaches the subject: its first route and the other type's, where found. */
function routes(member: Extract<Membership, { kind: 'member' }>): Route[] {
  return [{ path: member.path, via: member.via }, ...(member.also ? [member.also] : [])];
}

/** The ids that count as the subject in a member list: the subject itself and, for a device, its primary user. */
interface Seekers {
  userIds: Map<string, PathStep[]>;
  deviceId: string | null;
  /** A device whose Entra object id is not known: a group with device members cannot be told. */
  deviceUnknown: boolean;
  deviceUnknownReason?: string;
  groupId: string | null;
}

function seekers(subject: AppliesSubject): Seekers {
  if (subject.kind === 'device') {
    const userIds = new Map<string, PathStep[]>();
    if (subject.primaryUserId) {
      const name = subject.primaryUserName ?? subject.primaryUserId;
      userIds.set(subject.primaryUserId.toLowerCase(), [{ kind: 'primaryUser', id: subject.primaryUserId, name, words: `its primary user ${name}` }]);
    }
    return {
      userIds,
      deviceId: subject.entraObjectId?.toLowerCase() ?? null,
      deviceUnknown: subject.entraObjectId === null,
      ...(subject.entraUnknownReason ? { deviceUnknownReason: subject.entraUnknownReason } : {}),
      groupId: null,
    };
  }
  if (subject.kind === 'user') {
    return { userIds: new Map([[subject.id.toLowerCase(), []]]), deviceId: null, deviceUnknown: false, groupId: null };
  }
  return { userIds: new Map(), deviceId: null, deviceUnknown: false, groupId: subject.id.toLowerCase() };
}

/**
 * What one question works out once for every object it judges: whom to look for, and each group's
 * membership, by lower-case id, since many objects name the same groups.
 */
interface Question {
  seek: Seekers;
  memberships: Map<string, Membership>;
}

function question(subject: AppliesSubject): Question {
  return { seek: seekers(subject), memberships: new Map() };
}

/** `membership`, once per group and question: its answer depends only on the group, the records and whom it seeks. */
function knownMembership(groupId: string, records: AppliesRecords, asked: Question): Membership {
  const id = groupId.toLowerCase();
  let found = asked.memberships.get(id);
  if (!found) {
    found = membership(id, records, asked.seek);
    asked.memberships.set(id, found);
  }
  return found;
}

function groupStep(id: string, records: AppliesRecords): PathStep {
  const members = records.members.get(id);
  const name = (members?.displayName ?? records.groupNames?.get(id) ?? null) || `group ${id}`;
  return { kind: 'group', id, name, words: name };
}

/**
 * Whether the subject is in `groupId`, directly or through nested groups, and the chain that puts it
 * there. A device is sought both as itself and through its primary user, each to the end, so that a
 * group holding both is known as both (the first found is not the only one). A member found wins
 * over an unread branch, which is kept as a doubt about the type not found; an unread branch wins
 * over "not a member".
 */
function membership(groupId: string, records: AppliesRecords, seek: Seekers): Membership {
  // Held in one object the walk fills in, so that the compiler does not take them for the nulls they start as.
  const found: { unknown: Extract<Membership, { kind: 'unknown' }> | null; asUser: Route | null; asDevice: Route | null } = {
    unknown: null,
    asUser: null,
    asDevice: null,
  };
  const seeksDevice = seek.deviceId !== null || seek.deviceUnknown;
  const done = () => found.asUser !== null && (found.asDevice !== null || !seeksDevice);
  const visit = (id: string, chain: PathStep[], seen: Set<string>): Membership | null => {
    const step = groupStep(id, records);
    const path = [...chain, step];
    if (seek.groupId === id) return { kind: 'member', path, via: 'group' };
    const members = records.members.get(id);
    if (!members || members.state === 'unknown') {
      found.unknown ??= { kind: 'unknown', path, code: 'membersUnread', reason: members?.state === 'unknown' ? members.reason : 'its members were not read', via: 'either' };
      return null;
    }
    if (!found.asUser) {
      for (const userId of members.userIds) {
        const via = seek.userIds.get(userId);
        if (via) {
          found.asUser = { path: [...path, ...via], via: 'user' };
          break;
        }
      }
    }
    if (!found.asDevice && seek.deviceId && members.deviceIds.has(seek.deviceId)) found.asDevice = { path, via: 'device' };
    if (seek.deviceUnknown && members.deviceIds.size > 0) {
      found.unknown ??= {
        kind: 'unknown',
        path,
        code: 'deviceNotIdentified',
        reason: seek.deviceUnknownReason ?? 'it has devices as members, and which Entra device is this one cannot be told with the permissions this app has',
        via: 'device',
      };
    }
    if (done()) return null;
    if (path.length > MAX_NESTING_DEPTH) {
      if (members.groupIds.length > 0)
        found.unknown ??= { kind: 'unknown', path, code: 'nestedTooDeep', reason: `its groups are nested deeper than ${MAX_NESTING_DEPTH} levels`, via: 'either' };
      return null;
    }
    for (const nested of members.groupIds) {
      if (seen.has(nested)) continue;
      const asGroup = visit(nested, path, new Set([...seen, nested]));
      if (asGroup) return asGroup;
      if (done()) return null;
    }
    return null;
  };
  const id = groupId.toLowerCase();
  const asGroup = visit(id, [], new Set([id]));
  if (asGroup) return asGroup;
  const { unknown } = found;
  const [first, second] = [found.asUser, found.asDevice].filter((route): route is Route => route !== null);
  if (!first) return unknown ?? { kind: 'notMember' };
  // What could not be told is a doubt only about the type not found: a user found says nothing of the device.
  const doubt: Doubt | undefined =
    unknown && !second && (unknown.via === 'either' || unknown.via !== first.via)
      ? { path: unknown.path, code: unknown.code, reason: unknown.reason, via: unknown.via }
      : undefined;
  return { kind: 'member', path: first.path, via: first.via, ...(second ? { also: second } : {}), ...(doubt ? { doubt } : {}) };
}

function subjectStep(subject: AppliesSubject): PathStep {
  return { kind: 'subject', id: subject.id, name: subject.name, words: subject.name };
}

function targetMembership(target: AssignmentTarget, subject: AppliesSubject, records: AppliesRecords, asked: Question): Membership {
  const { seek } = asked;
  switch (target.type) {
    case 'allDevices':
      // All devices reaches every managed device; a user or a group only through their devices.
      return subject.kind === 'device' ? { kind: 'member', path: [{ kind: 'allDevices', words: 'All devices' }], via: 'device' } : { kind: 'notMember' };
    case 'allUsers':
      if (subject.kind === 'user') return { kind: 'member', path: [{ kind: 'allUsers', words: 'All users' }], via: 'user' };
      if (subject.kind === 'device' && subject.primaryUserId) {
        return { kind: 'member', path: [{ kind: 'allUsers', words: 'All users' }, ...seek.userIds.get(subject.primaryUserId.toLowerCase())!], via: 'user' };
      }
      return { kind: 'notMember' };
    case 'include':
    case 'exclude':
      return knownMembership(target.groupId, records, asked);
    default:
      return { kind: 'notMember' };
  }
}

/**
 * Whether an exclusion reached through `exclusion` can take out an inclusion reached through
 * `inclusion`. Intune applies exclusions between groups of one type only (user from user, device
 * from device) and "doesn't evaluate user-to-device group relationships" (Microsoft Learn, "Assign
 * policies in Microsoft Intune", "Exclude groups from a policy assignment"). A group that could not
 * be read may be of either type.
 */
function sameGroupType(inclusion: Via, exclusion: Via): boolean {
  return inclusion === exclusion || inclusion === 'either' || exclusion === 'either' || inclusion === 'group' || exclusion === 'group';
}

function pathWords(path: readonly PathStep[]): string {
  return path.map((step) => step.words).join(' → ');
}

/** "exclusion group Board members → …"; a group whose name was not read already reads "group <id>", said once. */
function exclusionGroupWords(path: readonly PathStep[]): string {
  const words = pathWords(path);
  return words.startsWith('group ') ? `exclusion ${words}` : `exclusion group ${words}`;
}

function platformOf(object: AssignableObject): AppliesPlatform & { reason?: string } {
  const platform = objectPlatform(object);
  if (platform.kind === 'for') return { kind: 'for', platforms: platform.platforms, words: platformWords(platform.platforms) };
  if (platform.kind === 'any') return { kind: 'any', platforms: [], words: 'any platform' };
  return { kind: 'unknown', platforms: [], words: 'an unknown platform', reason: platform.reason };
}

type Reached = { target: AssignmentTarget; member: Extract<Membership, { kind: 'member' }> };

/** One object's verdict for the subject, or null when none of its assignments reaches it. */
export function deriveEntry(object: AssignableObject, subject: AppliesSubject, records: AppliesRecords, asked: Question = question(subject)): AppliesEntry | null {
  const { reason: platformReason, ...platform } = platformOf(object);
  const base = { objectId: object.id, name: object.name, kind: object.kind, typeLabel: typeLabel(object), link: object.link, platform };
  if (object.targets === null) {
    return { ...base, verdict: 'unknown', intent: null, path: [], ...undecided('assignmentsUnread', '', 'its assignments could not be read'), caveats: [] };
  }
  const end = subject.kind === 'group' ? [] : [subjectStep(subject)];
  const withEnd = (path: PathStep[]) => (path.at(-1)?.kind === 'subject' || subject.kind === 'group' ? path : [...path, ...end]);
  const includes = object.targets.filter((target) => target.type === 'include' || target.type === 'allUsers' || target.type === 'allDevices');
  const excludes = object.targets.filter((target) => target.type === 'exclude');
  const reached = includes.map((target) => ({ target, member: targetMembership(target, subject, records, asked) }));
  // A group that reaches the subject both as its user and as the device is an inclusion of each type:
  // an exclusion of one type leaves the other standing (docs/finding-rules.md, "What applies").
  const members: Reached[] = reached.flatMap(({ target, member }) =>
    member.kind === 'member' ? routes(member).map((route) => ({ target, member: { kind: 'member' as const, path: route.path, via: route.via } })) : [],
  );
  const unknownInclusion = reached.find(({ member }) => member.kind === 'unknown');
  if (members.length === 0 && !unknownInclusion) return null;
  const firstPath = withEnd(members[0]?.member.path ?? []);
  const isApp = object.kind === 'mobileApp';
  const platformNote = platformSentence(platform, subject);

  // Intune delivers an object only to devices of its platform: one for another platform reaches the device in name only.
  const osPlatform = subject.kind === 'device' ? devicePlatform(subject.operatingSystem) : null;
  if (subject.kind === 'device' && platform.kind === 'for' && osPlatform && !platform.platforms.includes(osPlatform)) {
    return {
      ...base,
      verdict: 'notForPlatform',
      intent: isApp ? (members[0]?.target.intent ?? unknownInclusion?.target.intent ?? null) : null,
      path: firstPath,
      words: `Not for this platform: it is for ${platform.words} devices, and ${subject.name} runs ${subject.operatingSystem}.`,
      caveats: [],
    };
  }
  const platformDoubt =
    subject.kind !== 'device'
      ? null
      : platform.kind === 'unknown'
        ? `which platform it is for could not be told: ${platformReason ?? 'its type does not say'}`
        : platform.kind === 'for' && !osPlatform
          ? `the device's operating system ${subject.operatingSystem ? `"${subject.operatingSystem}"` : '(not given)'} is not one this app can match to ${platform.words}`
          : null;

  // Exclusions take out inclusions of their own group type only; a group holding both the device and
  // its user is an exclusion of both types, whichever it lists first.
  const exclusions = excludes.map((target) => targetMembership(target, subject, records, asked));
  const caveats: string[] = [];
  const live: Reached[] = [];
  const doubtful: Array<{ reached: Reached; exclusion: Doubt }> = [];
  let excludedBy: Route | null = null;
  const doubtAgainst = (via: Via): Doubt | undefined => {
    for (const exclusion of exclusions) {
      if (exclusion.kind === 'unknown' && sameGroupType(via, exclusion.via)) return exclusion;
      if (exclusion.kind === 'member' && exclusion.doubt && sameGroupType(via, exclusion.doubt.via)) return exclusion.doubt;
    }
    return undefined;
  };
  for (const inclusion of members) {
    const hit = exclusions.flatMap((exclusion) => (exclusion.kind === 'member' ? routes(exclusion) : [])).find((route) => sameGroupType(inclusion.member.via, route.via));
    if (hit) {
      excludedBy ??= hit;
      continue;
    }
    const maybe = doubtAgainst(inclusion.member.via);
    if (maybe) doubtful.push({ reached: inclusion, exclusion: maybe });
    else live.push(inclusion);
  }
  for (const exclusion of exclusions) {
    // An exclusion that reaches it only as the other group type is shown, with why it does not count.
    if (exclusion.kind !== 'member' || members.length === 0) continue;
    const counts = members.some(
      (inclusion) =>
        routes(exclusion).some((route) => sameGroupType(inclusion.member.via, route.via)) ||
        (exclusion.doubt !== undefined && sameGroupType(inclusion.member.via, exclusion.doubt.via)),
    );
    if (counts) continue;
    const path = withEnd(exclusion.path);
    caveats.push(
      `${capitalise(exclusionGroupWords(path))} reaches it as a ${exclusion.via === 'user' ? 'user' : 'device'}, but the assignment targets ${exclusion.via === 'user' ? 'devices' : 'users'}: Intune does not evaluate user-to-device group relationships, so that exclusion does not take it out.`,
    );
  }

  if (live.length === 0) {
    if (doubtful.length > 0) {
      const { reached: first, exclusion } = doubtful[0]!;
      const path = withEnd(first.member.path);
      return {
        ...base,
        verdict: 'unknown',
        intent: isApp ? first.target.intent : null,
        path,
        ...undecided(exclusion.code, `Targets it through ${pathWords(path)}, but whether ${exclusionGroupWords(exclusion.path)} takes it out could not be told`, exclusion.reason),
        caveats,
      };
    }
    if (excludedBy) {
      const path = withEnd(excludedBy.path);
      return {
        ...base,
        verdict: 'excluded',
        intent: isApp ? (members[0]?.target.intent ?? null) : null,
        path: firstPath,
        exclusion: { kind: 'group', path, words: `excluded through ${pathWords(path)}` },
        words: `Excluded: ${pathWords(path)}.`,
        caveats,
      };
    }
    const unknown = unknownInclusion!.member as Extract<Membership, { kind: 'unknown' }>;
    return {
      ...base,
      verdict: 'unknown',
      intent: isApp ? unknownInclusion!.target.intent : null,
      path: unknown.path,
      ...membershipUnknown(unknown),
      caveats,
    };
  }

  // Apps: the intent is resolved first; only the winning intent's assignments go on to their filters.
  let candidates = live;
  let intent: string | null = null;
  if (isApp) {
    const intents = live.flatMap(({ target, member }) =>
      target.intent ? [{ intent: target.intent, via: member.via === 'device' ? ('device' as const) : ('user' as const) }] : [],
    );
    const resolution = resolveIntents(intents);
    if (resolution.kind === 'unlisted') {
      const path = withEnd(live[0]!.member.path);
      return { ...base, verdict: 'unknown', intent: null, path, ...undecided('intentUnresolved', `Targets it through ${pathWords(path)}, but`, resolution.words, ' '), caveats };
    }
    intent = resolution.winners.length > 0 ? intentWords(resolution.winners) : null;
    if (resolution.winners.length > 0) candidates = live.filter(({ target }) => target.intent !== null && resolution.winners.includes(target.intent));
    if (candidates.length === 0) candidates = live;
  }

  const readings = candidates.map((candidate) => ({ ...candidate, reading: filterOf(candidate.target, subject, records, object) }));
  const decision = decideFilters(readings);
  const decider = decision.decider;
  const path = withEnd(decider.member.path);
  const filter = decider.reading.filter;
  const deciderCaveats = [...(decider.reading.caveat ? [decider.reading.caveat] : []), ...caveats];
  const suffix = platformNote ? ` ${platformNote}` : '';
  // Say why an exclude filter decided when other assignments had no filter or an include filter.
  const outranked = decider.reading.mode === 'exclude' && readings.some((reading) => reading.reading.mode === 'none' || reading.reading.mode === 'include');
  const precedence = outranked ? ' An exclude filter wins over an assignment with no filter or an include filter.' : '';

  if (decision.verdict !== 'out' && (platformDoubt || doubtful.length > 0)) {
    const exclusion = doubtful[0]?.exclusion;
    const why = exclusion
      ? undecided(exclusion.code, `Targets it through ${pathWords(path)}, but whether ${exclusionGroupWords(exclusion.path)} takes it out could not be told`, exclusion.reason)
      : undecided('platformUnknown', `Targets it through ${pathWords(path)}, but`, platformDoubt!, ' ');
    return { ...base, verdict: 'unknown', intent, path, ...(filter ? { filter } : {}), ...why, caveats: deciderCaveats };
  }
  if (decision.verdict === 'in') {
    return {
      ...base,
      verdict: 'applies',
      intent,
      path,
      ...(filter ? { filter } : {}),
      words: `Applies through ${pathWords(path)}${filter ? `; ${filter.words}` : ''}.${precedence}${suffix}`,
      caveats: deciderCaveats,
    };
  }
  if (decision.verdict === 'depends') {
    return {
      ...base,
      verdict: 'dependsOnFilter',
      intent,
      path,
      filter: filter!,
      words: `Targets it through ${pathWords(path)}; it ${filter!.words}.${suffix}`,
      caveats: deciderCaveats,
    };
  }
  if (unknownInclusion && unknownInclusion.member.kind === 'unknown') {
    const unknown = unknownInclusion.member;
    return {
      ...base,
      verdict: 'unknown',
      intent,
      path: unknown.path,
      ...membershipUnknown(unknown),
      caveats,
    };
  }
  return {
    ...base,
    verdict: 'excluded',
    intent,
    path,
    filter: filter!,
    exclusion: { kind: 'filter', filter: filter!, words: filter!.words },
    words: `Targets it through ${pathWords(path)}, but ${filter!.words}.${precedence}`,
    caveats: deciderCaveats,
  };
}

/**
 * An undecided entry's words and why, as data (`Undecided`): the words are the reason's lead-in, the
 * separator and the reason, so that a reason said once for many entries can be taken out whole.
 */
function undecided(code: UndecidedCode, without: string, reason: string, separator = ': '): Pick<AppliesEntry, 'words' | 'undecided'> {
  const words = without === '' ? `${capitalise(reason)}.` : `${without}${separator}${reason}.`;
  return { words, undecided: { code, reason, without } };
}

/** An entry assigned through a group whose membership could not be told. */
function membershipUnknown(unknown: Doubt): Pick<AppliesEntry, 'words' | 'undecided'> {
  return undecided(unknown.code, `Assigned to ${pathWords(unknown.path)}, whose membership could not be told`, unknown.reason);
}

/** For a user's or a group's answer, which platform's devices the object is for. */
function platformSentence(platform: AppliesPlatform, subject: AppliesSubject): string | null {
  if (subject.kind === 'device') return null;
  if (platform.kind === 'for') return `It is for ${platform.words} devices.`;
  if (platform.kind === 'unknown') return 'Which platform it is for could not be told.';
  return null;
}

/** `localeCompare`'s order, with one collator for the whole sort rather than a look-up per comparison. */
const NAME_ORDER = new Intl.Collator();

/** Every object that reaches the subject, grouped by object type in the admin center's order. */
export function deriveApplies(subject: AppliesSubject, records: AppliesRecords): AppliesAnswer {
  const counts: Record<AppliesVerdict, number> = { applies: 0, excluded: 0, dependsOnFilter: 0, unknown: 0, notForPlatform: 0 };
  const byType = new Map<ObjectTypeLabel, AppliesEntry[]>();
  const asked = question(subject);
  for (const object of records.objects) {
    const entry = deriveEntry(object, subject, records, asked);
    if (!entry) continue;
    counts[entry.verdict] += 1;
    const entries = byType.get(entry.typeLabel);
    if (entries) entries.push(entry);
    else byType.set(entry.typeLabel, [entry]);
  }
  const groups = TYPE_ORDER.flatMap((label) => {
    const entries = byType.get(label);
    return entries ? [{ typeLabel: label, entries: entries.sort((a, b) => NAME_ORDER.compare(a.name, b.name)) }] : [];
  });
  const conflicts: AppliesConflicts =
    subject.kind !== 'device'
      ? { state: 'deviceOnly', words: CONFLICTS_DEVICE_ONLY }
      : deviceConflicts(groups, records.settings ?? { state: 'failed', reason: 'they were not read for this answer' });
  return { subject, groups, counts, conflicts, notes: [OBJECT_TYPES_READ] };
}
