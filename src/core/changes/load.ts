/**
 * The change feed's reads (docs/contract.md, "The change feed"): the audit log for the window, then
 * only what names its changes in the admin center's words: the settings of the settings catalog
 * policies whose changed values are option ids, the groups and the assignment filters its
 * assignment changes name by id. Each of those reads is optional: one that fails leaves the values
 * as the log writes them and says so. The log is the feed's one source: a log that cannot be read
 * is the feed's load error, never an empty feed.
 */

import type * as Beta from '@microsoft/microsoft-graph-types-beta';
import { AUDIT_EVENTS_READ } from '../audit-story/reads.js';
import { readAuditWindow } from '../audit-story/read-audit-log.js';
import { lookUpGroups } from '../directory/group-lookup.js';
import { isGraphId } from '../graph/graph-id.js';
import { pathFor } from '../graph/upstream-read.js';
import { readPolicySettings } from '../policy-settings/settings-read.js';
import { POLICY_SETTINGS_READ } from '../policy-settings/reads.js';
import { ASSIGNMENT_FILTERS_READ } from '../reports/assignment-hygiene/reads.js';
import { asString } from '../reports/graph-values.js';
import { optionalReadFailure } from '../reports/optional-read.js';
import { readCollection } from '../reports/read-collection.js';
import type { AuditEntry, AuditLog, LoadContext } from '../reports/report-model.js';
import { GROUP_READ } from '../directory/reads.js';
import { IDS_IN_TEXT, changeFeed, NO_NAMES } from './change-feed.js';
import type { ChangeFeed, ChangeFeedResult, ChangeNames, ChangeWindow } from './change-feed.js';

/** The reads the feed makes, all declared by the reports that make them too, so it asks for no permission of its own. */
export const CHANGE_FEED_READS = [AUDIT_EVENTS_READ, POLICY_SETTINGS_READ, GROUP_READ, ASSIGNMENT_FILTERS_READ] as const;

// The feed as the front ends show it (change-feed.ts, where the tab takes it from).
export type { ChangeFeedResult } from './change-feed.js';

/** At most this many policies' settings are read to name one feed's values: a month of a large tenant's changes names a few hundred at most. */
export const MAX_POLICIES_NAMED = 200;
/** At most this many groups are looked up for one feed. */
export const MAX_GROUPS_NAMED = 200;

/**
 * What earlier feeds named, kept by whoever serves feeds again (the app's ChangeFeedService): a
 * policy's setting and option names as read after its newest change then (`upTo`), so a later feed
 * reads again only the settings of policies changed since; groups and filters by id. A warm cycle
 * then reads the log's new pages and the settings of the policies they name, and nothing else.
 */
export interface KnownNames {
  policies: Map<string, { upTo: number; settings: ReadonlyMap<string, string>; options: ReadonlyMap<string, string> }>;
  byId: Map<string, string>;
}

export function emptyKnownNames(): KnownNames {
  return { policies: new Map(), byId: new Map() };
}

/** Past this many policies or ids, what was named is forgotten and read again: a bound on what one process keeps. */
export const MAX_KNOWN_NAMES = 5_000;

/** The feed for a window: read through the tenant's shared log where the context carries one, else read for the window alone (the CLI). */
export async function loadChangeFeed(context: LoadContext, window: ChangeWindow, signal: AbortSignal, known: KnownNames = emptyKnownNames()): Promise<ChangeFeedResult> {
  const now = context.now?.() ?? new Date();
  const generatedAt = now.toISOString();
  const log = await readLog(context, window.since, signal);
  if (!log.ok)
    return {
      state: 'load-error',
      generatedAt,
      error: { status: statusOf(log.reason), code: 'auditLogUnreadable', message: `The Intune audit log could not be read (${log.reason}), so no change can be listed.` },
    };
  const entries = log.value.entries;
  const unnamed = changeFeed(entries, window, now);
  const notes: string[] = [];
  if (known.policies.size > MAX_KNOWN_NAMES || known.byId.size > MAX_KNOWN_NAMES) {
    known.policies.clear();
    known.byId.clear();
  }
  const names = await namesFor(context, unnamed, signal, notes, known);
  const feed = names === NO_NAMES ? unnamed : changeFeed(entries, window, now, names);
  if (feed.otherEvents > 0)
    notes.push(
      `${feed.otherEvents} other ${feed.otherEvents === 1 ? 'event' : 'events'} of the audit log in this time (device actions, roles, enrollment) ${feed.otherEvents === 1 ? 'is' : 'are'} not device configuration and not listed.`,
    );
  return { state: 'loaded', feed, notes, generatedAt };
}

async function readLog(context: LoadContext, since: Date, signal: AbortSignal): Promise<AuditLog> {
  if (context.auditLog) return context.auditLog.read(context, since, signal);
  try {
    const entries: AuditEntry[] = await readAuditWindow(context, since, undefined, signal);
    return { ok: true, value: { since: since.toISOString(), entries } };
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, signal) };
  }
}

function statusOf(reason: string): number | null {
  const status = /Graph answered (\d{3})/.exec(reason)?.[1];
  return status ? Number(status) : null;
}

/** The names the feed's values need, read only for what it shows and was not named before; what could not be read is said in `notes`. */
async function namesFor(context: LoadContext, feed: ChangeFeed, signal: AbortSignal, notes: string[], known: KnownNames): Promise<ChangeNames> {
  // Each settings catalog policy the feed shows a value of, with its newest change in the feed.
  const policies = new Map<string, number>();
  const groups = new Set<string>();
  const filters = new Set<string>();
  for (const change of feed.changes) {
    if (change.object.kind === 'settings-catalog' && change.action !== 'deleted' && change.details.length > 0 && isGraphId(change.object.id)) {
      const id = change.object.id.toLowerCase();
      policies.set(id, Math.max(policies.get(id) ?? 0, Date.parse(change.at)));
    }
    for (const detail of change.details) {
      // Told by the property as the log names it: an id is a group's or a filter's only where the property says so.
      const property = (detail.logged?.name ?? detail.name).toLowerCase();
      const ids = [detail.before, detail.after].flatMap((value) => value?.match(IDS_IN_TEXT) ?? []).map((id) => id.toLowerCase());
      if (property.includes('filterid')) for (const id of ids) filters.add(id);
      else if (property.includes('groupid')) for (const id of ids) groups.add(id);
    }
  }
  if (policies.size === 0 && groups.size === 0 && filters.size === 0) return NO_NAMES;
  // Only what was not named after its newest change, and ids not named before.
  const stale = [...policies].filter(([id, newest]) => (known.policies.get(id)?.upTo ?? -1) < newest).map(([id]) => id);
  const newGroups = [...groups].filter((id) => !known.byId.has(id));
  const newFilters = new Set([...filters].filter((id) => !known.byId.has(id)));
  const [read, groupNames, filterNames] = await Promise.all([
    settingNamesOf(context, stale, signal, notes),
    groupNamesOf(context, newGroups, notes),
    filterNamesOf(context, newFilters, signal, notes),
  ]);
  for (const [id, names] of read) known.policies.set(id, { upTo: policies.get(id) ?? 0, ...names });
  for (const [id, name] of [...groupNames, ...filterNames]) known.byId.set(id, name);
  const settings = new Map<string, string>();
  const options = new Map<string, string>();
  for (const id of policies.keys()) {
    const names = known.policies.get(id);
    if (!names) continue;
    for (const [key, name] of names.settings) if (!settings.has(key)) settings.set(key, name);
    for (const [key, name] of names.options) if (!options.has(key)) options.set(key, name);
  }
  return { settings, options, byId: known.byId };
}

/** The names of the settings and options of each policy whose settings were read whole, by lower-case policy id; a policy whose read failed is not kept, so the next feed tries it again. */
async function settingNamesOf(
  context: LoadContext,
  ids: string[],
  signal: AbortSignal,
  notes: string[],
): Promise<Map<string, { settings: Map<string, string>; options: Map<string, string> }>> {
  const named = new Map<string, { settings: Map<string, string>; options: Map<string, string> }>();
  if (ids.length === 0) return named;
  const toRead = ids.slice(0, MAX_POLICIES_NAMED);
  if (ids.length > toRead.length) notes.push(`The settings of ${ids.length - toRead.length} more policies were not read: their values are shown as the audit log writes them.`);
  const reads = await readPolicySettings(
    context.graph,
    toRead.map((id) => ({ id })),
    signal,
    { optionNames: true },
  );
  const failed: string[] = [];
  for (const [id, read] of reads) {
    if (read.readFailure) {
      failed.push(read.readFailure);
      continue;
    }
    named.set(id.toLowerCase(), { settings: new Map(Object.entries(read.settingNames ?? {})), options: new Map(Object.entries(read.optionNames ?? {})) });
  }
  if (failed.length > 0)
    notes.push(
      `The settings of ${failed.length} ${failed.length === 1 ? 'policy' : 'policies'} could not be read (${[...new Set(failed)].join(', ')}; ${pathFor(POLICY_SETTINGS_READ, '{id}')}): their changed values are shown as the audit log writes them.`,
    );
  return named;
}

async function groupNamesOf(context: LoadContext, ids: string[], notes: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.length === 0) return names;
  const looked = await lookUpGroups(context.graph, ids.slice(0, MAX_GROUPS_NAMED));
  let unknown = 0;
  for (const [id, group] of looked) {
    // Only a group read is named; a deleted or unreadable one keeps its id (a group not read is unknown, not deleted).
    if (group.state === 'found') names.set(id.toLowerCase(), group.displayName);
    else if (group.state === 'deleted') names.set(id.toLowerCase(), `${id} (a deleted group)`);
    else if (group.displayName) names.set(id.toLowerCase(), group.displayName);
    else unknown += 1;
  }
  if (unknown > 0) notes.push(`${unknown} ${unknown === 1 ? 'group' : 'groups'} named by id could not be read, so ${unknown === 1 ? 'it keeps its' : 'they keep their'} id.`);
  return names;
}

async function filterNamesOf(context: LoadContext, ids: ReadonlySet<string>, signal: AbortSignal, notes: string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  if (ids.size === 0) return names;
  try {
    const filters = await readCollection<Beta.DeviceAndAppManagementAssignmentFilter, { id: string; name: string } | null>(
      context,
      'assignmentFilters',
      ASSIGNMENT_FILTERS_READ.path,
      { query: { $select: 'id,displayName' }, signal },
      (filter) => {
        const id = asString(filter.id);
        const name = asString(filter.displayName);
        return id && name ? { id, name } : null;
      },
    );
    for (const filter of filters) if (filter && ids.has(filter.id.toLowerCase())) names.set(filter.id.toLowerCase(), filter.name);
  } catch (error) {
    notes.push(`The assignment filters could not be read (${optionalReadFailure(error, signal)}), so a filter keeps its id.`);
  }
  return names;
}
