/**
 * The change feed: what changed in the tenant's device configuration, who changed it and when, from
 * Intune's audit log (docs/finding-rules.md, "The change feed"). Pure: audit entries and the names
 * the feed's reads give (load.ts) in, the changes of a window out, newest first.
 *
 * What the log does not carry is said, never invented: a value it masks or cuts short, properties
 * beyond those kept, and anything before the window the log was read for.
 */

import { MAX_VALUE_CHARS, changeTime } from '../audit-story/audit-story.js';
import type { AuditEntry, AuditEntryResource, ChangedProperty, ReportLoadError } from '../reports/report-model.js';
import { objectKindOfType, typeOfActivity } from './object-kinds.js';
import type { ChangeObjectKind } from './object-kinds.js';

/** What was done to an object, in the feed's words. */
export type ChangeAction = 'created' | 'changed' | 'deleted' | 'assignments-changed' | 'assignment-added' | 'assignment-removed' | 'other';

const ACTION_LABELS: Record<ChangeAction, string> = {
  created: 'Created',
  changed: 'Changed',
  deleted: 'Deleted',
  'assignments-changed': 'Assignments changed',
  'assignment-added': 'Assignment added',
  'assignment-removed': 'Assignment removed',
  other: 'Other action',
};

/** One property a change names: before and after, in the admin center's words where the names are known. */
export interface ChangeDetail {
  /** A settings catalog setting by its display name, an assignment's part as the assignment pane says it, any other property in words. */
  name: string;
  before: string | null;
  after: string | null;
  /** What the log leaves out of this property's values, in words, where it leaves something out. */
  note?: string;
  /** The property as the log names it and its raw values, for JSON and CSV, where the names above differ. */
  logged?: ChangedProperty;
}

export interface Change {
  /** The audit event's id, and the object's where one event changed several. */
  id: string;
  at: string;
  by: string;
  object: { id: string; name: string | null; kind: ChangeObjectKind; kindLabel: string; link: string };
  action: ChangeAction;
  actionLabel: string;
  /** The activity as the log words it (`Patch DeviceConfiguration`). */
  activity: string;
  details: ChangeDetail[];
  /** How many more properties the event listed than the feed kept; 0 for none. */
  detailsLeftOut: number;
}

/** The names a feed shows settings, options, groups and filters by, from its own reads (load.ts); ids stay in `logged`. */
export interface ChangeNames {
  /** Settings catalog options' display names, by option id (the policies' settings, read with their definitions). */
  options: ReadonlyMap<string, string>;
  /** Settings catalog settings' display names, by setting definition id (the same read). */
  settings: ReadonlyMap<string, string>;
  /** The display names of the groups and assignment filters an assignment names by id, by that id in lower case. */
  byId: ReadonlyMap<string, string>;
}

export const NO_NAMES: ChangeNames = { options: new Map(), settings: new Map(), byId: new Map() };

export interface ChangeWindow {
  /** The feed's first instant (included). */
  since: Date;
  /** Its last (excluded); now where not given. */
  until?: Date;
  /** Only changes of objects whose name or id contains this, whatever its case. */
  object?: string;
  /** Only changes by someone whose name contains this, whatever its case. */
  person?: string;
}

export interface ChangeFeed {
  since: string;
  until: string;
  /** Newest first. */
  changes: Change[];
  /** Successful events in the window about something that is not device configuration (device actions, roles, enrollment): counted, not listed. */
  otherEvents: number;
}

/** The feed as the front ends show it: its changes and what it could not name, or why it could not be read at all (load.ts). */
export type ChangeFeedResult = { state: 'loaded'; feed: ChangeFeed; notes: string[]; generatedAt: string } | { state: 'load-error'; error: ReportLoadError; generatedAt: string };

/** Properties the log lists that say nothing about the object (the API version the portal called). */
const NOISE_PROPERTIES = new Set(['devicemanagementapiversion']);

/**
 * A value the log writes in place of a secret. Intune documents no mask; the admin center shows
 * a secret setting (a password, a shared key) as asterisks and Graph returns none of it
 * (learn.microsoft.com/intune/intune-service/protect/encrypt-devices-filevault, "…is never
 * shown"), so a value of asterisks only is read as a mask, and said so.
 */
const MASK = /^\*{3,}$/;

/** The changes of the window, newest first: successful events about device configuration only. */
export function changeFeed(entries: readonly AuditEntry[], window: ChangeWindow, now: Date, names: ChangeNames = NO_NAMES): ChangeFeed {
  const from = window.since.getTime();
  const to = (window.until ?? now).getTime();
  const object = window.object?.trim().toLowerCase();
  const person = window.person?.trim().toLowerCase();
  const changes: Change[] = [];
  const seen = new Set<string>();
  let otherEvents = 0;
  for (const entry of entries) {
    const at = Date.parse(entry.at);
    if (!entry.succeeded || Number.isNaN(at) || at < from || at >= to) continue;
    let listed = false;
    for (const resource of entry.resources) {
      const change = changeOf(entry, resource, names);
      if (!change) continue;
      listed = true;
      // The same event read by two overlapping windows, or kept twice: once.
      if (seen.has(change.id)) continue;
      seen.add(change.id);
      if (object && !`${change.object.name ?? ''}\n${change.object.id}`.toLowerCase().includes(object)) continue;
      if (person && !change.by.toLowerCase().includes(person)) continue;
      changes.push(change);
    }
    if (!listed) otherEvents += 1;
  }
  changes.sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || a.id.localeCompare(b.id));
  return { since: new Date(from).toISOString(), until: new Date(to).toISOString(), changes, otherEvents };
}

/** One resource of one event as a change, or null when it is not device configuration. */
export function changeOf(entry: AuditEntry, resource: AuditEntryResource, names: ChangeNames = NO_NAMES): Change | null {
  const kind = objectKindOfType(resource.type ?? typeOfActivity(entry.activity));
  if (!kind) return null;
  const action = actionOf(entry, kind.assignment);
  const details = resource.properties.filter((property) => !NOISE_PROPERTIES.has(property.name.trim().toLowerCase())).map((property) => detailOf(property, names));
  const name = resource.name ?? null;
  return {
    id: entry.resources.length > 1 ? `${entry.id}/${resource.id}` : entry.id || `${entry.at}|${resource.id}|${entry.activity}`,
    at: entry.at,
    by: entry.by,
    // A deleted object has no page left to open: its kind's list stands in.
    object: { id: resource.id, name, kind: kind.kind, kindLabel: kind.label, link: action === 'deleted' ? kind.list() : kind.link(resource.id, name ?? '') },
    action,
    actionLabel: ACTION_LABELS[action],
    activity: entry.activity,
    details,
    detailsLeftOut: Math.max(0, (resource.propertyCount ?? resource.properties.length) - resource.properties.length),
  };
}

/**
 * What was done, from the log's operation and the activity's verb (`Create`, `Patch`, `Delete`,
 * `Assign`, monitor-audit-logs): an assignment logged as a resource of its own is added, changed
 * or removed; `Assign` on the object sets its assignments whole.
 */
function actionOf(entry: AuditEntry, assignment: boolean): ChangeAction {
  const verb = (entry.activity.trim().split(/\s+/)[0] ?? '').toLowerCase();
  const operation = (entry.operation ?? '').toLowerCase();
  const is = (word: string) => verb === word || operation === word;
  if (assignment) {
    if (is('create')) return 'assignment-added';
    if (is('delete')) return 'assignment-removed';
    return 'assignments-changed';
  }
  if (verb === 'assign') return 'assignments-changed';
  if (is('create')) return 'created';
  if (is('delete')) return 'deleted';
  if (is('patch') || verb === 'update') return 'changed';
  return 'other';
}

function detailOf(property: ChangedProperty, names: ChangeNames): ChangeDetail {
  const setting = settingOf(property, names);
  const notes: string[] = [];
  const value = (raw: string | null): string | null => {
    if (raw === null || raw === '') return raw;
    if (MASK.test(raw.trim())) {
      notes.push('the log does not show a secret value');
      return 'a secret (not shown)';
    }
    if (raw.length >= MAX_VALUE_CHARS && raw.endsWith('…')) notes.push(`a value longer than ${MAX_VALUE_CHARS - 1} characters is cut short`);
    return namedValue(raw, names);
  };
  const assignmentPart = assignmentPartOf(property.name);
  const named = (raw: string | null) => (assignmentPart && raw ? (ASSIGNMENT_VALUES[raw.trim().toLowerCase()] ?? value(raw)) : value(raw));
  const before = named(property.oldValue);
  const after = named(property.newValue);
  const name = setting ?? assignmentPart?.name ?? propertyWords(property.name);
  const renamed = name !== property.name || before !== property.oldValue || after !== property.newValue;
  return {
    name,
    before,
    after,
    ...(notes.length > 0 ? { note: [...new Set(notes)].join('; ') } : {}),
    ...(renamed ? { logged: property } : {}),
  };
}

/**
 * A settings catalog setting's display name for a property whose value is one of its options: an
 * option id is its setting's definition id and a suffix (`…_enablefirewall` and `…_enablefirewall_true`,
 * as the catalog names them), so the longest known definition id the value starts with names it.
 */
function settingOf(property: ChangedProperty, names: ChangeNames): string | null {
  if (names.settings.size === 0) return null;
  for (const value of [property.newValue, property.oldValue]) {
    if (!value) continue;
    let best: string | null = null;
    let bestLength = 0;
    const lower = value.toLowerCase();
    for (const [id, name] of names.settings) {
      const prefix = id.toLowerCase();
      if (prefix.length > bestLength && lower.startsWith(`${prefix}_`)) {
        best = name;
        bestLength = prefix.length;
      }
    }
    if (best !== null) return best;
  }
  return null;
}

/**
 * The parts of an assignment the log lists (`Assignments[0].Target.GroupId`, or `Target.GroupId` on
 * an assignment of its own), in the words of the admin center's assignment pane: the group, the
 * filter and its mode (Include or Exclude), an app's intent (Required, Available for enrolled
 * devices, Uninstall: learn.microsoft.com/graph/api/resources/intune-apps-mobileappassignment).
 */
const ASSIGNMENT_PARTS: ReadonlyArray<[RegExp, string]> = [
  [/target\.groupid$/i, 'group'],
  [/target\.deviceandappmanagementassignmentfilterid$/i, 'filter'],
  [/target\.deviceandappmanagementassignmentfiltertype$/i, 'filter mode'],
  [/target\.@?odata\.type$/i, 'target'],
  [/(^|\.)intent$/i, 'intent'],
];

const ASSIGNMENT_VALUES: Readonly<Record<string, string>> = {
  include: 'Include',
  exclude: 'Exclude',
  none: 'No filter',
  required: 'Required',
  available: 'Available for enrolled devices',
  availablewithoutenrollment: 'Available with or without enrollment',
  uninstall: 'Uninstall',
  '#microsoft.graph.groupassignmenttarget': 'Included group',
  '#microsoft.graph.exclusiongroupassignmenttarget': 'Excluded group',
  '#microsoft.graph.alllicensedusersassignmenttarget': 'All users',
  '#microsoft.graph.alldevicesassignmenttarget': 'All devices',
};

/** `Assignments[2].Target.GroupId` as "Assignment 3: group", `Target.GroupId` as "Assignment: group"; null for any other property. */
function assignmentPartOf(property: string): { name: string } | null {
  const part = ASSIGNMENT_PARTS.find(([pattern]) => pattern.test(property))?.[1];
  if (!part) return null;
  const index = /assignments?\[(\d+)\]/i.exec(property)?.[1];
  if (index === undefined && !/^target\.|^intent$/i.test(property)) return null;
  return { name: index === undefined ? `Assignment: ${part}` : `Assignment ${Number(index) + 1}: ${part}` };
}

/** Properties every object has, by the admin center's own words for them ("Scope tags" for `roleScopeTagIds`). */
const KNOWN_PROPERTIES: Readonly<Record<string, string>> = {
  rolescopetagids: 'Scope tags',
  displayname: 'Name',
  name: 'Name',
  description: 'Description',
  assignments: 'Assignments',
};

/**
 * A property as the log names it (`PasswordMinimumLength`, `RunSchedule.Interval`) in words:
 * "Password minimum length", "Run schedule interval". The log's names are Graph's properties, which
 * the admin center labels in its own words, not listed anywhere to map from; the words are the
 * property's own, and the name as logged stays in `logged`.
 */
export function propertyWords(property: string): string {
  if (/\[\d+\]/.test(property) && /settinginstance/i.test(property)) return 'A setting whose name the audit log does not give';
  const known =
    KNOWN_PROPERTIES[
      property
        .replace(/^\$collection\./i, '')
        .replace(/\[\d+\]$/, '')
        .toLowerCase()
    ];
  if (known) return known;
  const words = property
    .replace(/^\$collection\./i, '')
    .split(/[._\s]+/)
    .flatMap((part) =>
      part
        .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
        .split(' '),
    )
    .filter(Boolean)
    .map((word, index) => (/^[A-Z0-9]+$/.test(word) && word.length > 1 ? word : index === 0 ? word[0]!.toUpperCase() + word.slice(1).toLowerCase() : word.toLowerCase()));
  return words.length > 0 ? words.join(' ') : property;
}

/** Every id in a text (an assignment's group or filter), for naming them; load.ts reads the same ones. */
export const IDS_IN_TEXT = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A value as the admin center names it: an option by its display name, a group's or a filter's id by its name. */
function namedValue(raw: string, names: ChangeNames): string {
  const option = names.options.get(raw) ?? names.options.get(raw.toLowerCase());
  if (option !== undefined) return option;
  if (names.byId.size === 0) return raw;
  return raw.replace(IDS_IN_TEXT, (id) => names.byId.get(id.toLowerCase()) ?? id);
}

/** One change in a line, for the bot and the command line: when, who, what, which object. */
export function describeChange(change: Change): string {
  return `${changeTime(change.at)}: ${change.by}: ${change.actionLabel.toLowerCase()} ${change.object.kindLabel.toLowerCase()} "${change.object.name ?? change.object.id}"`;
}
