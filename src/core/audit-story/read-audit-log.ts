/**
 * The read of Intune's audit log a load makes for its findings' stories (audit-story.ts): through
 * the Graph port like every other read (paged, paced, progress told per page), optional, so a log
 * that cannot be read is a value, never the report's load error. Where the tenant's reports share
 * the log (`context.auditLog`, shared-audit-log.ts), it is read once for them and then only what is new.
 */

import type * as Graph from '@microsoft/microsoft-graph-types';
import { optionalReadFailure } from '../reports/optional-read.js';
import { readCollection } from '../reports/read-collection.js';
import { loadSideBySide } from '../reports/side-by-side.js';
import type { LoadContext } from '../reports/report-model.js';
import { auditWindowFilter, auditWindowStart, projectAuditEvent } from './audit-story.js';
import type { AuditEntry, AuditLog } from './audit-story.js';
import { AUDIT_EVENTS_READ } from './reads.js';

/** List auditEvents, as its declaration says (reads.ts). */
export const AUDIT_EVENTS_PATH = AUDIT_EVENTS_READ.path;

/**
 * The audit log since the oldest of the objects' last modifications (within the log's retention).
 * The List page documents no query options; the window is `$filter=activityDateTime ge …` (a long
 * one in slices, each also `and activityDateTime lt …`: `readAuditWindow`), the date range the
 * admin center's own audit view and Microsoft's samples filter the log by. Events are not filtered
 * by resource upstream (not reliable on this list): `storiesOf` matches them.
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

/** Windows shorter than two of these are read in one piece; longer ones in slices at least this long. */
export const AUDIT_SLICE_MIN_MS = 7 * 86_400_000;
/** At most this many slices of one window are read at once: the Graph client's default concurrency (docs/performance.md, "The audit log, read once"). */
export const MAX_AUDIT_SLICES = 8;

/**
 * The events from `from` on, or up to `to` (excluded) when given; a failed read throws, as the
 * Graph port does. A long window (a cold load's year) is read as consecutive time slices side by
 * side, each `activityDateTime ge … and activityDateTime lt …`, the last one open-ended as the
 * whole window is: the log pages only forward through `@odata.nextLink`, so one chain of a year's
 * pages would wait a round trip per page, while slices let the client pace itself on Intune's
 * budget instead. Slices do not overlap, so no event is read twice; the first slice that fails
 * stops the others (`loadSideBySide`).
 */
export async function readAuditWindow(context: LoadContext, from: Date, to: Date | undefined, signal: AbortSignal): Promise<AuditEntry[]> {
  const slices = auditSlices(from, to, context.now?.() ?? new Date());
  const readSlice = (slice: { from: Date; to: Date | undefined }, sliceContext: LoadContext, sliceSignal: AbortSignal) =>
    readCollection<Graph.AuditEvent, AuditEntry>(
      sliceContext,
      'auditEvents',
      AUDIT_EVENTS_PATH,
      { query: { $filter: auditWindowFilter(slice.from, slice.to) }, signal: sliceSignal },
      projectAuditEvent,
    );
  if (slices.length === 1) return readSlice(slices[0]!, context, signal);
  // Each slice tells its own count; the window's progress is their sum, one count that only grows.
  const counts = slices.map(() => 0);
  const sliceContext = (index: number): LoadContext => ({
    ...context,
    onProgress: (source, count) => {
      counts[index] = count;
      context.onProgress?.(
        source,
        counts.reduce((sum, each) => sum + each, 0),
      );
    },
  });
  const controller = new AbortController();
  const stop = () => controller.abort(signal.reason);
  if (signal.aborted) stop();
  else signal.addEventListener('abort', stop, { once: true });
  try {
    const parts = await loadSideBySide(
      slices.map((slice, index) => (sliceSignal: AbortSignal) => readSlice(slice, sliceContext(index), sliceSignal)),
      controller,
    );
    return parts.flat();
  } finally {
    signal.removeEventListener('abort', stop);
  }
}

/**
 * The slices a window is read in: consecutive, each starting where the one before ends, the first
 * at `from`, the last ending at `to` (or open-ended, as the window is, so that nothing written
 * during the read is missed). One slice for a window shorter than two `AUDIT_SLICE_MIN_MS`.
 */
export function auditSlices(from: Date, to: Date | undefined, now: Date): Array<{ from: Date; to: Date | undefined }> {
  const start = from.getTime();
  const end = (to ?? now).getTime();
  const count = Math.max(1, Math.min(MAX_AUDIT_SLICES, Math.floor((end - start) / AUDIT_SLICE_MIN_MS)));
  // A whole number of seconds, as the filter's literals are (they leave out a date's milliseconds,
  // alike on both sides of each boundary, so the slices still meet).
  const step = Math.ceil((end - start) / count / 1000) * 1000;
  return Array.from({ length: count }, (_, index) => ({
    from: new Date(start + index * step),
    to: index === count - 1 ? to : new Date(start + (index + 1) * step),
  }));
}
