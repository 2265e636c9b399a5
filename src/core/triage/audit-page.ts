import type { ReportId } from '../reports/report-model.js';
import type { TriageAuditEntry } from './triage-book.js';

/**
 * A report's triage audit read a page at a time (docs/contract.md, "Triage", reading the audit), so
 * that the whole list can be read however many entries one person makes: the book keeps each
 * person's entries apart (`AUDIT_PER_PERSON`), and this is how anyone reads them all back.
 * Browser-safe: the tab reads these types.
 */

/** Entries a page has unless `limit` says otherwise. */
export const AUDIT_PAGE_DEFAULT = 50;
/** Entries a page has at most: a dialog's worth several times over, and small to send. */
export const AUDIT_PAGE_MAX = 200;
/** An object id is 36 characters; anything much longer is not one. */
const PERSON_MAX_LENGTH = 128;

export interface AuditPageQuery {
  limit: number;
  /** Only entries numbered below this (the `older` of the page before); null for the newest. */
  before: number | null;
  /** Only this person's entries, by object id; null for everyone's. */
  person: string | null;
}

/** Someone who appears in a report's audit, as their newest entry names them, and how many entries are theirs. */
export interface AuditPerson {
  objectId: string;
  name: string;
  username: string;
  entries: number;
}

export interface AuditPage {
  report: ReportId;
  /** Newest first. */
  entries: TriageAuditEntry[];
  /** The `before` that reads the next, older page; null when this page reaches the oldest entry. */
  older: number | null;
  /** Entries of the report in the audit (of the person only, when narrowed). */
  total: number;
  /** Everyone with an entry in the report's audit, by name: whom the audit can be narrowed to. */
  people: AuditPerson[];
}

export type AuditPageQueryError = { parameter: 'limit' | 'before' | 'person'; message: string };

/**
 * The query's parameters, checked: `limit` a whole number from 1 to `AUDIT_PAGE_MAX`, `before` a
 * whole number from 1, `person` an id of at most 128 characters. A parameter given twice counts
 * once, its last (as the rows' window query reads them); others are ignored.
 */
export function readAuditPageQuery(parameters: Readonly<Record<string, unknown>>): { ok: true; query: AuditPageQuery } | { ok: false; error: AuditPageQueryError } {
  const text = (name: string): string | undefined => {
    const value = parameters[name];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  };
  const whole = (name: 'limit' | 'before', least: number, most: number | null): number | null | AuditPageQueryError => {
    const value = text(name);
    if (value === undefined) return null;
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < least || (most !== null && number > most)) {
      return { parameter: name, message: `${name}: "${value}" is not a whole number ${most === null ? `from ${least}` : `from ${least} to ${most}`}.` };
    }
    return number;
  };
  const limit = whole('limit', 1, AUDIT_PAGE_MAX);
  if (limit !== null && typeof limit !== 'number') return { ok: false, error: limit };
  const before = whole('before', 1, null);
  if (before !== null && typeof before !== 'number') return { ok: false, error: before };
  const person = text('person') ?? null;
  if (person !== null && (person.trim() === '' || person.length > PERSON_MAX_LENGTH)) {
    return {
      ok: false,
      error: { parameter: 'person', message: `person: give the object id of someone in the audit (the people list names them), at most ${PERSON_MAX_LENGTH} characters.` },
    };
  }
  return { ok: true, query: { limit: limit ?? AUDIT_PAGE_DEFAULT, before, person } };
}

/**
 * One page of a report's audit entries, newest first, from the book's audit list (oldest first).
 * Entries are paged by their number, not their place, so a page read after new entries were added
 * (or after someone's oldest were dropped) follows on from the page before it without a gap or a repeat.
 */
export function auditPageOf(audit: readonly TriageAuditEntry[], report: ReportId, query: AuditPageQuery): AuditPage {
  const people = new Map<string, AuditPerson>();
  const entries: TriageAuditEntry[] = [];
  let total = 0;
  let more = false;
  for (let index = audit.length - 1; index >= 0; index -= 1) {
    const entry = audit[index]!;
    if (entry.report !== report) continue;
    const known = people.get(entry.by.objectId);
    if (known) known.entries += 1;
    else people.set(entry.by.objectId, { ...entry.by, entries: 1 });
    if (query.person !== null && entry.by.objectId !== query.person) continue;
    total += 1;
    if (query.before !== null && entry.seq >= query.before) continue;
    if (entries.length < query.limit) entries.push(entry);
    else more = true;
  }
  return {
    report,
    entries,
    older: more ? entries.at(-1)!.seq : null,
    total,
    people: [...people.values()].sort((a, b) => personLabel(a).localeCompare(personLabel(b), 'en', { sensitivity: 'base' }) || a.objectId.localeCompare(b.objectId)),
  };
}

/** How a person is named to readers: their name, else their username, else their object id. */
export function personLabel(person: { objectId: string; name: string; username: string }): string {
  return person.name || person.username || person.objectId;
}
