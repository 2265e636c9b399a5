/**
 * A finding's story: since when, and who changed its object. Intune's audit log
 * (`GET /deviceManagement/auditEvents`, learn.microsoft.com/graph/api/intune-auditing-auditevent-list)
 * records every create, update, delete and assignment of a policy, profile, app, script or access
 * policy (learn.microsoft.com/intune/intune-service/fundamentals/monitor-audit-logs), and this
 * file, pure, turns the events a load read into each object's recent changes and puts the last one
 * on the findings about it (docs/finding-rules.md, "A finding's last change").
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { asString, graphTimestamp } from '../reports/graph-values.js';
import type { AuditChange, AuditEntry, AuditEntryResource, AuditLog, DerivedReport, LastChange } from '../reports/report-model.js';

// The contract's types (report-model.ts), for the report folders that build stories, and the port
// through which a load reads the shared log (declared beside the load's context, which carries it).
export type { AuditChange, AuditEntry, AuditEntryResource, AuditLog, AuditLogSource, AuditStories, ChangedProperty, LastChange } from '../reports/report-model.js';

/** Changes kept per object in a report's JSON, newest first: enough for the tab's pane, bounded for a large tenant. */
export const MAX_CHANGES_PER_OBJECT = 5;
/** Properties kept per change; a baseline's update may list hundreds. */
export const MAX_PROPERTIES = 10;
/** Characters kept of a property's old or new value (a script's content is logged whole). */
export const MAX_VALUE_CHARS = 200;

/**
 * Who made a change the log records without a user or an app name. The change still happened: it
 * is still the object's last change, so an older, named one is never shown in its place.
 */
export const UNNAMED_ACTOR = 'someone the audit log does not name';

/** How long Intune keeps its audit log: "up to one year of audit events" through Graph (monitor-audit-logs). */
export const AUDIT_RETENTION_DAYS = 365;
const DAY_MS = 86_400_000;
/**
 * The window starts this long before the oldest object's `lastModifiedDateTime`: the log's time
 * and the object's are written by different services, so the event that set the date may be
 * stamped a little earlier.
 */
const WINDOW_SLACK_MS = DAY_MS;

function clip(value: string | null): string | null {
  return value !== null && value.length > MAX_VALUE_CHARS ? `${value.slice(0, MAX_VALUE_CHARS - 1)}…` : value;
}

/**
 * Who made a change: the user's principal name first, since a change made in the admin center
 * also names the portal's app (`Microsoft Intune portal extension`, monitor-audit-logs); for an
 * app acting on its own (no user), the app's display name, then its service principal name.
 */
export function auditActorName(actor: Graph.AuditActor | null | undefined): string | null {
  const names = [actor?.userPrincipalName, actor?.applicationDisplayName, actor?.servicePrincipalName];
  for (const name of names) {
    const value = asString(name)?.trim();
    if (value) return value;
  }
  return null;
}

/** An audit event as Graph returns it (auditEvent, intune-auditing-auditevent), kept to what a story reads. */
export function projectAuditEvent(event: Graph.AuditEvent): AuditEntry {
  const at = graphTimestamp(event.activityDateTime)?.toISOString() ?? '';
  const resources = Array.isArray(event.resources) ? event.resources : [];
  return {
    id: asString(event.id) ?? '',
    at,
    by: auditActorName(event.actor) ?? UNNAMED_ACTOR,
    activity: asString(event.activity) ?? asString(event.activityType) ?? asString(event.displayName) ?? 'a change',
    // Graph documents `activityResult` only as "The result of the activity"; the log writes
    // `Success` for a change that took, so anything else (`Failure`, absent) is not a change.
    succeeded: asString(event.activityResult)?.trim().toLowerCase() === 'success',
    ...optional('operation', asString(event.activityOperationType)?.trim()),
    resources: resources.flatMap((resource): AuditEntryResource[] => {
      const id = asString(resource?.resourceId);
      if (!id) return [];
      const listed = Array.isArray(resource.modifiedProperties) ? resource.modifiedProperties : [];
      const properties = listed.slice(0, MAX_PROPERTIES).map((property) => ({
        name: asString(property?.displayName) ?? '',
        oldValue: clip(asString(property?.oldValue)),
        newValue: clip(asString(property?.newValue)),
      }));
      // v1.0 names the type `auditResourceType`; beta also has `type` (auditResource, both versions' pages).
      const type = asString(resource.auditResourceType)?.trim() || asString((resource as { type?: unknown }).type)?.trim();
      return [
        {
          id,
          properties,
          ...optional('name', asString(resource.displayName)?.trim()),
          ...optional('type', type),
          ...(listed.length > properties.length ? { propertyCount: listed.length } : {}),
        },
      ];
    }),
  };
}

/** `{ [key]: value }` for a value that is there and not empty, else nothing: a kept entry carries no empty fields. */
function optional<Key extends string>(key: Key, value: string | undefined): Partial<Record<Key, string>> {
  return value ? ({ [key]: value } as Record<Key, string>) : {};
}

/**
 * Where a load's read of the log starts: a day before the oldest of its objects' last
 * modifications (the last change of each is then inside), but never before the log's retention;
 * an object whose modification time is unknown reads the whole retention.
 */
export function auditWindowStart(lastModified: ReadonlyArray<string | null | undefined>, now: Date): Date {
  const retention = now.getTime() - AUDIT_RETENTION_DAYS * DAY_MS;
  let oldest = now.getTime();
  for (const value of lastModified) {
    const date = graphTimestamp(value);
    if (!date) return new Date(retention);
    oldest = Math.min(oldest, date.getTime());
  }
  return new Date(Math.max(retention, oldest - WINDOW_SLACK_MS));
}

/** The `$filter` of a read from `since` (and before `before`, when given): Graph's DateTimeOffset literals, whole seconds. */
export function auditWindowFilter(since: Date, before?: Date): string {
  const literal = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return before === undefined ? `activityDateTime ge ${literal(since)}` : `activityDateTime ge ${literal(since)} and activityDateTime lt ${literal(before)}`;
}

/**
 * Each object's successful changes, newest first, at most `MAX_CHANGES_PER_OBJECT`, keyed by the
 * id as asked. The log promises no order and its resource filter is unreliable, so every event
 * is matched here, by `resourceId` without case (as Graph compares ids). An event with no time
 * cannot be placed in the story and is left out.
 */
export function storiesOf(entries: readonly AuditEntry[], objectIds: Iterable<string>): Map<string, AuditChange[]> {
  const wanted = new Map<string, string>();
  for (const id of objectIds) wanted.set(id.toLowerCase(), id);
  const found = new Map<string, AuditChange[]>();
  for (const entry of entries) {
    if (!entry.succeeded || !entry.at) continue;
    const seen = new Set<string>();
    for (const resource of entry.resources) {
      const id = wanted.get(resource.id.toLowerCase());
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const list = found.get(id) ?? [];
      list.push({ at: entry.at, by: entry.by, activity: entry.activity, properties: resource.properties });
      found.set(id, list);
    }
  }
  for (const [id, changes] of found) found.set(id, changes.sort((a, b) => Date.parse(b.at) - Date.parse(a.at)).slice(0, MAX_CHANGES_PER_OBJECT));
  return found;
}

/** What a report's notice says when the log could not be read and there are findings it would have told. */
export function unreadableStoryNotice(reason: string): string {
  return `Who last changed these findings' objects, and when, could not be read from the Intune audit log (${reason}).`;
}

/**
 * A derived report with its findings' stories: each finding whose object (`subjectId`) the log
 * shows a successful change of carries `lastChange`, and the report carries those objects' recent
 * changes. A log that could not be read leaves the findings as they are and says so in the notice,
 * as a notice, not an error. Without a log (a load that did not read one) the report is unchanged.
 */
export function withStories<Kind extends string>(
  derived: DerivedReport<Kind>,
  log: AuditLog | undefined,
  valueNames: ReadonlyMap<string, string> = new Map(),
): DerivedReport<Kind> {
  if (!log) return derived;
  if (!log.ok) {
    if (derived.findings.length === 0) return { ...derived, auditLog: { state: 'unreadable', reason: log.reason } };
    const notice = unreadableStoryNotice(log.reason);
    return { ...derived, notice: derived.notice ? `${derived.notice} ${notice}` : notice, auditLog: { state: 'unreadable', reason: log.reason } };
  }
  const stories = storiesOf(
    log.value.entries,
    derived.findings.map((finding) => finding.subjectId),
  );
  // A changed value that is a settings catalog option id is shown by the option's display name, as
  // the report shows it (docs/finding-rules.md, "Settings as the admin center names them").
  const named = (value: string | null) => (value === null ? null : (valueNames.get(value) ?? value));
  const changes: Record<string, AuditChange[]> = {};
  for (const [id, list] of stories)
    changes[id] =
      valueNames.size === 0
        ? list
        : list.map((change) => ({
            ...change,
            properties: change.properties.map((property) => ({ ...property, oldValue: named(property.oldValue), newValue: named(property.newValue) })),
          }));
  return {
    ...derived,
    findings: derived.findings.map((finding) => {
      const last = stories.get(finding.subjectId)?.[0];
      return last ? { ...finding, lastChange: { at: last.at, by: last.by, activity: last.activity } } : finding;
    }),
    auditLog: { state: 'read', since: log.value.since, changes },
  };
}

/** A change's time in words every front end shows the same: `2026-11-14 14:02 UTC`. */
export function changeTime(at: string): string {
  const date = graphTimestamp(at);
  return date ? `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC` : at;
}

/** One line for a finding's last change, for the CLI, the bot's cards and the tab: who, when, what. */
export function describeLastChange(lastChange: LastChange): string {
  return `Last changed by ${lastChange.by} on ${changeTime(lastChange.at)} (${lastChange.activity})`;
}
