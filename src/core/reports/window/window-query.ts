import type { TriageDecision, TriageState } from '../../triage/triage-book.js';

/**
 * What a window over one table of a report asks for (docs/contract.md, "The server's endpoints", the
 * rows), and the request's parameters read into one: the part of the windows that knows HTTP's
 * words, apart from the index and the ordering they are answered from (window-index.ts,
 * window-order.ts, report-window.ts).
 */

/** The most rows one window holds, and how many it holds unless asked. */
export const WINDOW_MAX_LIMIT = 1_000;
export const WINDOW_DEFAULT_LIMIT = 100;

/**
 * The longest text filter a window takes, in characters and in words: every word is looked for in
 * every row, so the work of a query grows with both (docs/contract.md, the rows). A person types a
 * name or two; a 7,000-word filter held a 100,000-device server for seconds.
 */
export const WINDOW_Q_MAX_CHARACTERS = 200;
export const WINDOW_Q_MAX_WORDS = 16;

/** A filter's words, lower-cased: what a row's text must hold each of. */
export function filterWords(q: string): string[] {
  return q.toLowerCase().split(/\s+/).filter(Boolean);
}

export type WindowDirection = 'asc' | 'desc';

export interface WindowQuery {
  /** The table's section key; '' for a report with one table. */
  table: string;
  offset: number;
  limit: number;
  /** The column to order by; null: the tab's default order (the worst open finding first). */
  sort: string | null;
  dir: WindowDirection;
  /** Text every word of which a row's visible cells must hold (case-insensitive); '' for none. */
  q: string;
  /** Only rows with a finding of this kind. */
  finding: string | null;
  /** Only rows with an open finding (neither accepted nor snoozed now); with `finding`, an open one of that kind. */
  open: boolean;
  /** Only rows with a finding accepted (or snoozed) now; with `finding`, one of that kind. Never with `open`. */
  triage: TriageState | null;
}

/**
 * A query of a table with what `overrides` does not set left as a request without parameters asks:
 * the first 100 rows in the tab's own order, nothing filtered.
 */
export function windowQuery(table: string, overrides: Partial<WindowQuery> = {}): WindowQuery {
  return { table, offset: 0, limit: WINDOW_DEFAULT_LIMIT, sort: null, dir: 'asc', q: '', finding: null, open: false, triage: null, ...overrides };
}

/** The decisions in force now (accepted, or snoozed until a day not yet past), by fingerprint. */
export type DecisionsInForce = ReadonlyMap<string, Pick<TriageDecision, 'state'>>;

/** A parameter the window cannot take: which one, and the words of the 400. */
export interface WindowQueryError {
  parameter: string;
  message: string;
}

/** What a report's result offers a query: its tables, their columns, its finding kinds. */
export interface WindowShape {
  tables: readonly string[];
  columnsOf: (table: string) => readonly string[];
  kinds: readonly string[];
}

const list = (values: readonly string[]) => values.map((value) => `"${value}"`).join(', ');

/**
 * A query from the request's parameters, or the first parameter it cannot take. `table` may be left
 * out (the report's first table); `limit` is 1 to 1,000 (100 when left out); `offset` a whole number
 * from 0; `sort` a column of that table; `dir` `asc` or `desc`; `finding` a kind of the report;
 * `open` `true` or `false`; `triage` `accepted` or `snoozed`, and not with `open=true` (a finding
 * decided on is not open); `q` at most 200 characters and 16 words.
 */
export function parseWindowQuery(parameters: Readonly<Record<string, unknown>>, shape: WindowShape): { ok: true; query: WindowQuery } | { ok: false; error: WindowQueryError } {
  const text = (name: string): string | undefined => {
    const value = parameters[name];
    if (value === undefined) return undefined;
    return Array.isArray(value) ? String(value[value.length - 1]) : String(value);
  };
  const fail = (parameter: string, message: string) => ({ ok: false as const, error: { parameter, message } });
  const tableText = text('table');
  const table = tableText ?? shape.tables[0] ?? '';
  if (!shape.tables.includes(table)) {
    return fail(
      'table',
      shape.tables.length === 1 && shape.tables[0] === ''
        ? 'table: this report has one table; leave table out.'
        : `table: "${table}" is not a table of this report; it has ${list(shape.tables)}.`,
    );
  }
  const whole = (name: string, fallback: number, least: number, most: number | null): number | WindowQueryError => {
    const value = text(name);
    if (value === undefined) return fallback;
    const number = /^\d+$/.test(value) ? Number(value) : NaN;
    if (!Number.isSafeInteger(number) || number < least || (most !== null && number > most)) {
      return { parameter: name, message: `${name}: "${value}" is not a whole number ${most === null ? `from ${least}` : `from ${least} to ${most.toLocaleString('en-US')}`}.` };
    }
    return number;
  };
  const offset = whole('offset', 0, 0, null);
  if (typeof offset !== 'number') return { ok: false, error: offset };
  const limit = whole('limit', WINDOW_DEFAULT_LIMIT, 1, WINDOW_MAX_LIMIT);
  if (typeof limit !== 'number') return { ok: false, error: limit };
  const sort = text('sort') ?? null;
  const columns = shape.columnsOf(table);
  if (sort !== null && !columns.includes(sort)) return fail('sort', `sort: "${sort}" is not a column of this table; it has ${list(columns)}.`);
  const dir = text('dir') ?? 'asc';
  if (dir !== 'asc' && dir !== 'desc') return fail('dir', `dir: "${dir}" is not "asc" or "desc".`);
  const finding = text('finding') ?? null;
  if (finding !== null && !shape.kinds.includes(finding)) {
    return fail(
      'finding',
      shape.kinds.length === 0 ? `finding: this report has no finding kinds.` : `finding: "${finding}" is not a finding kind of this report; it has ${list(shape.kinds)}.`,
    );
  }
  const open = text('open') ?? 'false';
  if (open !== 'true' && open !== 'false') return fail('open', `open: "${open}" is not "true" or "false".`);
  const triage = text('triage') ?? null;
  if (triage !== null && triage !== 'accepted' && triage !== 'snoozed') return fail('triage', `triage: "${triage}" is not "accepted" or "snoozed".`);
  if (triage !== null && open === 'true') return fail('triage', 'triage: a finding accepted or snoozed is not open; ask for triage or for open=true, not both.');
  const q = text('q') ?? '';
  if (q.length > WINDOW_Q_MAX_CHARACTERS) return fail('q', `q: the filter is ${q.length.toLocaleString('en-US')} characters long; it takes at most ${WINDOW_Q_MAX_CHARACTERS}.`);
  const words = filterWords(q).length;
  if (words > WINDOW_Q_MAX_WORDS) return fail('q', `q: the filter has ${words} words; it takes at most ${WINDOW_Q_MAX_WORDS}.`);
  return { ok: true, query: windowQuery(table, { offset, limit, sort, dir, q, finding, open: open === 'true', triage }) };
}
