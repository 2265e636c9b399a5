/**
 * Intune's audit log read once for all the reports of one tenant, then only what is new
 * (docs/performance.md, "The audit log, read once"). Reports 2 and 3 each want the log from some
 * date on; the first read of a window reads it whole, and every later one asks only for the events
 * since the previous read began (less an overlap, for events written late) and for any older part
 * a report asks for that was never read. What is kept is what stories need, each object's newest
 * successful changes (`MAX_CHANGES_PER_OBJECT`), and what the change feed lists, every successful
 * change of the last `FEED_KEPT_DAYS` (src/core/changes): a year of events costs memory per object
 * changed and per recent change, not per event. It is kept between processes, compressed, where
 * the tenant's state is (`memory`).
 *
 * Reads are made one at a time; a reader that asks while a read covering its window is under way
 * takes that read's answer rather than read again.
 */

import { optionalReadFailure } from '../reports/optional-read.js';
import type { LoadContext, LoadMemory } from '../reports/report-model.js';
import { AUDIT_RETENTION_DAYS, MAX_CHANGES_PER_OBJECT } from './audit-story.js';
import type { AuditEntry, AuditLog, AuditLogSource } from './audit-story.js';
import { readAuditWindow } from './read-audit-log.js';

const DAY_MS = 86_400_000;
/**
 * How far back of the previous read's start the next one begins. Microsoft documents no delay
 * between a change and its audit event; an event stamped a little before it was written would
 * fall between two reads without it. Events read twice are told apart by their id.
 */
export const AUDIT_REREAD_OVERLAP_MS = 60 * 60 * 1000;
/** The name of the kept log in the tenant's state (docs/contract.md, "Kept between loads"). */
export const KEPT_AUDIT_LOG = 'audit-log';
/**
 * Every change of this many days back is kept, for the change feed (src/core/changes), which lists
 * each change of a month, not only an object's last few; older ones are kept as stories need them.
 */
export const FEED_KEPT_DAYS = 31;

/** One kept change of one object: an audit entry cut down to that object's part of it. */
interface KeptChange {
  /** The event's id: the same event read by two overlapping windows is kept once. */
  event: string;
  at: string;
  by: string;
  activity: string;
  /** The event's HTTP operation, where the log named one (`Create`, `Patch`, `Delete`, `Action`). */
  operation?: string;
  resource: AuditEntry['resources'][number];
}

interface KeptLog {
  /** The oldest time the kept events cover (ms). */
  since: number;
  /** Where the next read of new events starts (ms): the last read's start, less the overlap. */
  nextFrom: number;
  /** Per object id (lower case, as Graph compares ids), its successful changes of the feed's days and at least its newest few, newest first. */
  changes: Map<string, KeptChange[]>;
}

export class SharedAuditLog implements AuditLogSource {
  private kept: KeptLog | null = null;
  private restored = false;
  private queue: Promise<unknown> = Promise.resolve();
  private underWay: { since: number; answer: Promise<AuditLog> } | null = null;

  constructor(private readonly memory?: LoadMemory) {}

  /**
   * The log from `since` on, as a load of its own would have read it: the kept changes older than
   * `since` are left out, so a report's stories do not depend on which other report asked first.
   */
  async read(context: LoadContext, since: Date, signal: AbortSignal): Promise<AuditLog> {
    const underWay = this.underWay;
    if (underWay && underWay.since <= since.getTime()) return fromOn(await abortable(underWay.answer, signal), since);
    const answer = this.queue.then(() => this.refresh(context, since));
    const entry = { since: since.getTime(), answer };
    this.underWay = entry;
    this.queue = answer.then(
      () => this.done(entry),
      () => this.done(entry),
    );
    return fromOn(await abortable(answer, signal), since);
  }

  private done(entry: { since: number }): void {
    if (this.underWay === entry) this.underWay = null;
  }

  private async refresh(context: LoadContext, since: Date): Promise<AuditLog> {
    const startedAt = (context.now?.() ?? new Date()).getTime();
    const retention = startedAt - AUDIT_RETENTION_DAYS * DAY_MS;
    const from = Math.max(since.getTime(), retention);
    if (!this.restored) {
      this.restored = true;
      this.kept = await this.restore();
    }
    const kept = this.kept;
    const windows: Array<{ from: number; to?: number }> = [];
    if (kept) {
      if (from < kept.since) windows.push({ from, to: kept.since });
      windows.push({ from: Math.max(kept.nextFrom, retention) });
    } else {
      windows.push({ from });
    }
    // The read is the tenant's, not the asking report's: a report that stops waiting leaves it to the others.
    const readSignal = new AbortController().signal;
    const entries: AuditEntry[] = [];
    try {
      for (const window of windows) {
        // One by one: a year of events is more than a spread's arguments may hold.
        for (const entry of await readAuditWindow(context, new Date(window.from), window.to === undefined ? undefined : new Date(window.to), readSignal)) entries.push(entry);
      }
    } catch (error) {
      return { ok: false, reason: optionalReadFailure(error, readSignal) };
    }
    const next = mergedLog(kept, entries, {
      since: Math.min(from, kept?.since ?? from),
      nextFrom: startedAt - AUDIT_REREAD_OVERLAP_MS,
      retention,
      recent: startedAt - FEED_KEPT_DAYS * DAY_MS,
    });
    this.kept = next;
    await this.memory?.write(KEPT_AUDIT_LOG, JSON.stringify(keptDocument(next))).catch(() => undefined);
    return { ok: true, value: { since: new Date(next.since).toISOString(), entries: entriesOf(next, from) } };
  }

  private async restore(): Promise<KeptLog | null> {
    const text = await this.memory?.read(KEPT_AUDIT_LOG).catch(() => null);
    if (!text) return null;
    try {
      return keptLogOf(JSON.parse(text));
    } catch {
      // A kept log that cannot be parsed is read again from Graph, as if nothing were kept.
      return null;
    }
  }
}

/**
 * The kept log with a read's entries added: each object's successful changes since `recent` and at
 * least its newest `MAX_CHANGES_PER_OBJECT`, none older than the retention.
 */
function mergedLog(kept: KeptLog | null, entries: readonly AuditEntry[], window: { since: number; nextFrom: number; retention: number; recent: number }): KeptLog {
  // The kept lists are taken over, not copied: the kept log they were in is replaced by this one.
  const changes = new Map<string, KeptChange[]>(kept?.changes ?? []);
  const touched = new Set<string>();
  for (const entry of entries) {
    const at = Date.parse(entry.at);
    if (!entry.succeeded || Number.isNaN(at) || at < window.retention) continue;
    for (const resource of entry.resources) {
      const id = resource.id.toLowerCase();
      const list = changes.get(id) ?? [];
      // Without an id an event is told apart by what it says.
      const event = entry.id || `${entry.at}|${entry.by}|${entry.activity}`;
      if (list.some((change) => change.event === event)) continue;
      list.push({ event, at: entry.at, by: entry.by, activity: entry.activity, ...(entry.operation ? { operation: entry.operation } : {}), resource });
      changes.set(id, list);
      touched.add(id);
    }
  }
  for (const [id, list] of changes) {
    // Newest first: a list nothing was added to keeps all it has while its oldest change is recent,
    // or within the retention and one of the few kept per object. So a warm read's cost is what it added.
    if (!touched.has(id)) {
      const last = list[list.length - 1];
      if (!last) {
        changes.delete(id);
        continue;
      }
      const oldest = Date.parse(last.at);
      if (oldest >= window.recent || (oldest >= window.retention && list.length <= MAX_CHANGES_PER_OBJECT)) continue;
    }
    const within = list.filter((change) => Date.parse(change.at) >= window.retention);
    if (touched.has(id) || within.length !== list.length) within.sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
    if (within.length === 0) changes.delete(id);
    else
      changes.set(
        id,
        within.filter((change, index) => index < MAX_CHANGES_PER_OBJECT || Date.parse(change.at) >= window.recent),
      );
  }
  return { since: Math.max(window.since, window.retention), nextFrom: window.nextFrom, changes };
}

/** The part of a log from `since` on. */
function fromOn(log: AuditLog, since: Date): AuditLog {
  if (!log.ok) return log;
  const from = since.getTime();
  return { ok: true, value: { since: since.toISOString(), entries: log.value.entries.filter((entry) => Date.parse(entry.at) >= from) } };
}

/** The kept changes from `from` on (ms) as audit entries, one per change, for `storiesOf` and the change feed. */
function entriesOf(kept: KeptLog, from: number): AuditEntry[] {
  const entries: AuditEntry[] = [];
  for (const list of kept.changes.values()) {
    for (const change of list) {
      // Newest first: the rest of the list is older still.
      if (Date.parse(change.at) < from) break;
      entries.push({
        id: change.event,
        at: change.at,
        by: change.by,
        activity: change.activity,
        succeeded: true,
        ...(change.operation ? { operation: change.operation } : {}),
        resources: [change.resource],
      });
    }
  }
  return entries;
}

interface KeptDocument {
  since: number;
  nextFrom: number;
  changes: Array<[string, KeptChange[]]>;
}

function keptDocument(kept: KeptLog): KeptDocument {
  return { since: kept.since, nextFrom: kept.nextFrom, changes: [...kept.changes] };
}

/** A kept document as written by `keptDocument`, or null for anything else (an older shape, a torn one). */
function keptLogOf(value: unknown): KeptLog | null {
  if (typeof value !== 'object' || value === null) return null;
  const document = value as Partial<KeptDocument>;
  if (typeof document.since !== 'number' || typeof document.nextFrom !== 'number' || !Array.isArray(document.changes)) return null;
  const changes = new Map<string, KeptChange[]>();
  for (const pair of document.changes as unknown[]) {
    if (!Array.isArray(pair) || typeof pair[0] !== 'string' || !Array.isArray(pair[1]) || !(pair[1] as unknown[]).every(isKeptChange)) return null;
    changes.set(pair[0], pair[1] as KeptChange[]);
  }
  return { since: document.since, nextFrom: document.nextFrom, changes };
}

function isKeptChange(value: unknown): value is KeptChange {
  if (typeof value !== 'object' || value === null) return false;
  const change = value as Record<string, unknown>;
  const resource = change.resource as Record<string, unknown> | null | undefined;
  return (
    typeof change.event === 'string' &&
    typeof change.at === 'string' &&
    typeof change.by === 'string' &&
    typeof change.activity === 'string' &&
    (change.operation === undefined || typeof change.operation === 'string') &&
    typeof resource === 'object' &&
    resource !== null &&
    typeof resource.id === 'string' &&
    Array.isArray(resource.properties)
  );
}

/** The answer, or the asker's abort if it comes first: the read goes on for whoever else waits on it. */
function abortable<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    answer.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}
