/**
 * The read of Intune's audit log a load makes for its findings' stories (audit-story.ts): through
 * the Graph port like every other read (paged, paced, progress told per page), optional, so a log
 * that cannot be read is a value, never the report's load error. Where the tenant's reports share
 * the log (`context.auditLog`, shared-audit-log.ts), it is read once for them and then only what is new.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { optionalReadFailure } from '../reports/optional-read.js';
import { readCollection } from '../reports/read-collection.js';
import type { LoadContext } from '../reports/report-model.js';
import { auditWindowFilter, auditWindowStart, projectAuditEvent } from './audit-story.js';
import type { AuditEntry, AuditLog } from './audit-story.js';
import { AUDIT_EVENTS_READ } from './reads.js';

/** List auditEvents, as its declaration says (reads.ts). */
export const AUDIT_EVENTS_PATH = AUDIT_EVENTS_READ.path;

/**
 * The audit log since the oldest of the objects' last modifications (within the log's retention).
 * The List page documents no query options; the window is `$filter=activityDateTime ge …`, the
 * date range the admin center's own audit view and Microsoft's samples filter the log by. Events
 * are not filtered by resource upstream (not reliable on this list): `storiesOf` matches them.
 */
export async function readAuditLog(context: LoadContext, lastModified: ReadonlyArray<string | null | undefined>, signal?: AbortSignal): Promise<AuditLog> {
  const since = auditWindowStart(lastModified, context.now?.() ?? new Date());
  // A read asked for without a signal is never aborted; it still needs one to tell an abort from a failure.
  const readSignal = signal ?? new AbortController().signal;
  if (context.auditLog) return context.auditLog.read(context, since, readSignal);
  try {
    return { ok: true, value: { since: since.toISOString(), entries: await readAuditWindow(context, since, undefined, readSignal) } };
  } catch (error) {
    return { ok: false, reason: optionalReadFailure(error, readSignal) };
  }
}

/** The events from `from` on, or up to `to` (excluded) when given; a failed read throws, as the Graph port does. */
export function readAuditWindow(context: LoadContext, from: Date, to: Date | undefined, signal: AbortSignal): Promise<AuditEntry[]> {
  return readCollection<Graph.AuditEvent, AuditEntry>(context, 'auditEvents', AUDIT_EVENTS_PATH, { query: { $filter: auditWindowFilter(from, to) }, signal }, projectAuditEvent);
}
