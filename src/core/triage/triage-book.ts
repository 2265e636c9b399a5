import type { Finding, ReportId } from '../reports/report-model.js';

/**
 * What people decided about findings (docs/contract.md, "Triage"): a finding *accepted* (an intended
 * exclusion, a kiosk group) or *snoozed* until a date is shown apart, not counted as open and not
 * posted by the bot. Decisions are kept by fingerprint, so a finding whose fingerprint changes (its
 * rule detail changed) is a new finding again. Browser-safe: the tab reads the book as the server does.
 */
export type TriageState = 'accepted' | 'snoozed';

/** Who did something, as the SSO token names them. */
export interface TriageActor {
  objectId: string;
  name: string;
  username: string;
}

export interface TriageDecision {
  fingerprint: string;
  report: ReportId;
  kind: string;
  subjectId: string;
  subjectName: string;
  state: TriageState;
  /** Why it was accepted or snoozed, in the user's words. */
  reason: string;
  /** A snooze's last day (`YYYY-MM-DD`, UTC): the finding is open again from the next day on. */
  until: string | null;
  by: TriageActor;
  at: string;
}

export type TriageAction = 'accept' | 'snooze' | 'reopen';

/** One line of the audit list: who did what to which finding, and when. */
export interface TriageAuditEntry {
  /**
   * The entry's number in the book's audit list: from 1, each one higher than any before it, never
   * given twice. A reader pages by it (`before`), which new entries, all numbered higher, do not
   * move (audit-page.ts).
   */
  seq: number;
  at: string;
  by: TriageActor;
  action: TriageAction;
  fingerprint: string;
  report: ReportId;
  kind: string;
  subjectName: string;
  reason: string;
  until: string | null;
}

/** Every decision in force, and the audit list, newest last. */
export interface TriageBook {
  decisions: TriageDecision[];
  audit: TriageAuditEntry[];
  updatedAt: string | null;
}

/** A book as stored: entries written before they were numbered have no `seq` (`sequencedTriageBook` gives them one). */
export type StoredTriageBook = Omit<TriageBook, 'audit'> & { audit: Array<Omit<TriageAuditEntry, 'seq'> & { seq?: number }> };

/**
 * What the tab reads of the book for one report (docs/contract.md, "Triage"). The whole audit list
 * is read a page at a time (`auditPageOf`, audit-page.ts), so that no one's entries can be pushed
 * out of sight by someone else's many.
 */
export interface TriageView {
  /** Whether the signed-in user may change decisions (holds DeviceHealth.Triager). */
  canTriage: boolean;
  /** Decisions in force for the report. */
  decisions: TriageDecision[];
  /**
   * The report's latest 200 audit entries, newest first: kept for the callers that read them here
   * (docs/contract.md, "Versioning and compatibility"); the tab reads the whole list by pages.
   */
  audit: TriageAuditEntry[];
  /** How many audit entries the report has. */
  auditCount: number;
  /** The `seq` of the report's newest audit entry, or null for none: it changes with every change to the report's triage. */
  auditLatest: number | null;
}

/** A request to change a finding's triage, as the API receives it. */
export interface TriageRequest {
  action: TriageAction;
  fingerprint: string;
  reason?: string;
  until?: string;
}

/**
 * The audit list keeps this many entries of each person's, their newest: years of one person's
 * decisions. A count per person, not for the list as a whole, so that no one can push anyone
 * else's decisions out of it by deciding often (docs/contract.md, "Triage").
 */
export const AUDIT_PER_PERSON = 1_000;
/** Decisions kept at most: far more than any tenant's findings would need accepting. */
const DECISION_LIMIT = 20_000;
/** A snooze lasts a year at most: "not now" is not "never", which is what accepting is for. */
export const MAX_SNOOZE_DAYS = 366;
export const MAX_REASON_LENGTH = 500;

export function emptyTriageBook(): TriageBook {
  return { decisions: [], audit: [], updatedAt: null };
}

/** The UTC day (`YYYY-MM-DD`) of an instant. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The last day a snooze made now may run to. */
export function latestSnoozeDay(now: Date): string {
  return utcDay(new Date(now.getTime() + MAX_SNOOZE_DAYS * 86_400_000));
}

/**
 * A decision's effect now: accepted for good, snoozed through its last day, or nothing once the
 * snooze has ended (the finding is open again, and the bot posts it as new).
 */
export function triageStateAt(decision: TriageDecision, now: Date): TriageState | null {
  if (decision.state === 'accepted') return 'accepted';
  return decision.until !== null && decision.until >= utcDay(now) ? 'snoozed' : null;
}

/** The decisions in force now, by fingerprint. */
export function decisionsInForce(book: Pick<TriageBook, 'decisions'>, now: Date): Map<string, TriageDecision> {
  const inForce = new Map<string, TriageDecision>();
  for (const decision of book.decisions) if (triageStateAt(decision, now)) inForce.set(decision.fingerprint, decision);
  return inForce;
}

/** Findings split into those still open and those accepted or snoozed now. */
export function splitByTriage<T extends Pick<Finding, 'fingerprint'>>(
  findings: readonly T[],
  inForce: ReadonlyMap<string, TriageDecision>,
  now: Date,
): { open: T[]; accepted: T[]; snoozed: T[] } {
  const split = { open: [] as T[], accepted: [] as T[], snoozed: [] as T[] };
  for (const finding of findings) {
    const decision = inForce.get(finding.fingerprint);
    const state = decision ? triageStateAt(decision, now) : null;
    split[state ?? 'open'].push(finding);
  }
  return split;
}

export type TriageOutcome = { ok: true; book: TriageBook; decision: TriageDecision | null } | { ok: false; status: 400 | 404 | 409; message: string };

/**
 * Applies one request to a report's findings in the book: accept (a reason is required), snooze
 * until a day after today and within a year (a reason is optional), or reopen a finding of that
 * report that is accepted or snoozed. `finding` is the finding as the report's latest load shows it;
 * reopening needs none, as the finding may have gone. Every change adds an audit entry; the book
 * stays within its limits by dropping each person's oldest audit entries past their share and
 * decisions that no longer have an effect.
 */
export function applyTriage(
  book: TriageBook,
  request: TriageRequest,
  context: {
    report: ReportId;
    finding: Finding | null;
    by: TriageActor;
    now: Date;
    /**
     * For a viewer limited to scope tags: whether they may see a decision (docs/finding-rules.md,
     * "Viewer scope"). One they may not see is, to them, no decision at all: reopening it is answered
     * as reopening a finding with none, so that the answer does not say whether it exists.
     */
    visible?: (decision: TriageDecision) => boolean;
  },
): TriageOutcome {
  const { report, finding, by, now, visible } = context;
  const at = now.toISOString();
  const reason = (request.reason ?? '').trim();
  if (reason.length > MAX_REASON_LENGTH) return { ok: false, status: 400, message: `A reason is at most ${MAX_REASON_LENGTH} characters.` };
  const kept = book.decisions.find((decision) => decision.fingerprint === request.fingerprint);
  const existing = kept && (!visible || visible(kept)) ? kept : undefined;
  const others = book.decisions.filter((decision) => decision.fingerprint !== request.fingerprint);

  if (request.action === 'reopen') {
    // Another report's decision is not this report's to reopen.
    if (existing && existing.report !== report) return { ok: false, status: 404, message: 'This report has no decision on a finding with this fingerprint.' };
    if (!existing || !triageStateAt(existing, now)) return { ok: false, status: 409, message: 'This finding is not accepted or snoozed.' };
    const entry = auditEntry(nextSeq(book.audit), 'reopen', existing, by, at, reason, null);
    return { ok: true, book: bounded({ decisions: others, audit: [...book.audit, entry], updatedAt: at }, now), decision: null };
  }

  if (!finding) return { ok: false, status: 404, message: 'The latest load of the report has no finding with this fingerprint; refresh the report.' };
  let until: string | null = null;
  if (request.action === 'accept') {
    if (!reason) return { ok: false, status: 400, message: 'Accepting a finding needs a reason, for whoever reads it next.' };
  } else {
    const today = utcDay(now);
    const latest = latestSnoozeDay(now);
    if (!isDay(request.until)) return { ok: false, status: 400, message: 'A snooze needs the day it ends, as YYYY-MM-DD.' };
    if (request.until < today) return { ok: false, status: 400, message: 'A snooze must end today or later.' };
    if (request.until > latest)
      return { ok: false, status: 400, message: `A snooze ends within ${MAX_SNOOZE_DAYS} days; accept the finding to keep it out of the open list for longer.` };
    until = request.until;
  }
  const decision: TriageDecision = {
    fingerprint: finding.fingerprint,
    report,
    kind: finding.kind,
    subjectId: finding.subjectId,
    subjectName: finding.subjectName,
    state: request.action === 'accept' ? 'accepted' : 'snoozed',
    reason,
    until,
    by,
    at,
  };
  const entry = auditEntry(nextSeq(book.audit), request.action, decision, by, at, reason, until);
  return { ok: true, book: bounded({ decisions: [...others, decision], audit: [...book.audit, entry], updatedAt: at }, now), decision };
}

function auditEntry(seq: number, action: TriageAction, about: TriageDecision, by: TriageActor, at: string, reason: string, until: string | null): TriageAuditEntry {
  return { seq, at, by, action, fingerprint: about.fingerprint, report: about.report, kind: about.kind, subjectName: about.subjectName, reason, until };
}

/**
 * The next entry's number. The newest entry is never dropped (it is the newest of its person's), so
 * the highest number given stays in the list and no number is given twice.
 */
function nextSeq(audit: readonly TriageAuditEntry[]): number {
  return (audit.at(-1)?.seq ?? 0) + 1;
}

/**
 * A stored book with every audit entry numbered. A book written before entries had numbers (or
 * by an instance that does not give them, during an upgrade) has entries without one: each takes
 * the number after the entry before it, which is its place in the list until the next change
 * writes the numbers down, so a reader's cursor means the same before and after that write.
 */
export function sequencedTriageBook(stored: StoredTriageBook): TriageBook {
  let previous = 0;
  const audit = stored.audit.map((entry): TriageAuditEntry => {
    const seq = entry.seq !== undefined && entry.seq > previous ? entry.seq : previous + 1;
    previous = seq;
    return { ...entry, seq };
  });
  return { ...stored, audit };
}

/** Ended snoozes are dropped (the audit list keeps them); past the limits, the oldest go first. */
function bounded(book: TriageBook, now: Date): TriageBook {
  const decisions = book.decisions.filter((decision) => triageStateAt(decision, now) !== null);
  return {
    decisions: decisions.length > DECISION_LIMIT ? decisions.slice(decisions.length - DECISION_LIMIT) : decisions,
    audit: withinEachPersonsShare(book.audit),
    updatedAt: book.updatedAt,
  };
}

/** The audit list with, of each person's entries, the newest `AUDIT_PER_PERSON`; the order is kept. */
function withinEachPersonsShare(audit: readonly TriageAuditEntry[]): TriageAuditEntry[] {
  const kept = new Map<string, number>();
  const newestFirst: TriageAuditEntry[] = [];
  for (let index = audit.length - 1; index >= 0; index -= 1) {
    const entry = audit[index]!;
    const count = kept.get(entry.by.objectId) ?? 0;
    if (count >= AUDIT_PER_PERSON) continue;
    kept.set(entry.by.objectId, count + 1);
    newestFirst.push(entry);
  }
  return newestFirst.reverse();
}

function isDay(value: unknown): value is string {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && utcDay(parsed) === value;
}

/** A request body as the API receives it, checked; a message when it is not one. */
export function readTriageRequest(body: unknown): { ok: true; request: TriageRequest } | { ok: false; message: string } {
  const candidate = body as Partial<Record<keyof TriageRequest, unknown>> | null;
  if (typeof candidate !== 'object' || candidate === null) return { ok: false, message: 'The body must be a JSON object.' };
  const { action, fingerprint, reason, until } = candidate;
  if (action !== 'accept' && action !== 'snooze' && action !== 'reopen') return { ok: false, message: 'action must be accept, snooze or reopen.' };
  if (typeof fingerprint !== 'string' || !/^[0-9a-f]{32}$/.test(fingerprint)) return { ok: false, message: "fingerprint must be a finding's fingerprint (32 hex digits)." };
  if (reason !== undefined && typeof reason !== 'string') return { ok: false, message: 'reason must be text.' };
  if (until !== undefined && typeof until !== 'string') return { ok: false, message: 'until must be a day, YYYY-MM-DD.' };
  return { ok: true, request: { action, fingerprint, ...(reason !== undefined ? { reason } : {}), ...(until !== undefined ? { until } : {}) } };
}

/**
 * Whether stored text is a triage book, every decision and audit entry of it checked: a wrong one
 * is an error, never an empty book that would reopen everything, and never a book that a change is
 * written into and then cannot be shown (which would answer an error for a change made).
 */
export function isTriageBook(value: unknown): value is StoredTriageBook {
  const book = value as Partial<StoredTriageBook> | null;
  return (
    typeof book === 'object' &&
    book !== null &&
    Array.isArray(book.decisions) &&
    Array.isArray(book.audit) &&
    (book.updatedAt === null || typeof book.updatedAt === 'string') &&
    book.decisions.every(isTriageDecision) &&
    book.audit.every(isTriageAuditEntry)
  );
}

function isTriageDecision(value: unknown): value is TriageDecision {
  const decision = value as Partial<TriageDecision> | null;
  return (
    typeof decision === 'object' &&
    decision !== null &&
    (decision.state === 'accepted' || decision.state === 'snoozed') &&
    (decision.until === null || typeof decision.until === 'string') &&
    areStrings(decision, ['fingerprint', 'report', 'kind', 'subjectId', 'subjectName', 'reason', 'at']) &&
    isTriageActor(decision.by)
  );
}

function isTriageAuditEntry(value: unknown): value is StoredTriageBook['audit'][number] {
  const entry = value as Partial<TriageAuditEntry> | null;
  return (
    typeof entry === 'object' &&
    entry !== null &&
    (entry.action === 'accept' || entry.action === 'snooze' || entry.action === 'reopen') &&
    (entry.until === null || typeof entry.until === 'string') &&
    (entry.seq === undefined || (Number.isSafeInteger(entry.seq) && entry.seq > 0)) &&
    areStrings(entry, ['at', 'fingerprint', 'report', 'kind', 'subjectName', 'reason']) &&
    isTriageActor(entry.by)
  );
}

function isTriageActor(value: unknown): value is TriageActor {
  return typeof value === 'object' && value !== null && areStrings(value, ['objectId', 'name', 'username']);
}

function areStrings(value: object, keys: readonly string[]): boolean {
  return keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'string');
}
