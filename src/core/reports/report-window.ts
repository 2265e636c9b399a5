import { findingKind } from '../findings/finding-kinds.js';
import type { FindingSeverity } from '../findings/finding-kinds.js';
import type { TriageDecision, TriageState } from '../triage/triage-book.js';
import type { CellValue, Finding, ReportColumn, ReportResult, ReportRow } from './report-model.js';
import { CHANGED_COLUMN_KEY, windowTextSortKey } from './row-keys.js';

export { CHANGED_COLUMN_KEY, windowTextSortKey };

/**
 * A window over one table of a report's result (docs/contract.md, "The server's endpoints", the
 * rows): filtered, ordered and sliced on the server, so a viewer of a very large tenant reads the
 * rows in view rather than the whole report. Pure and browser-safe. Everything a query needs is
 * built once per result and kept as long as the result is: per table, each column's values held
 * compactly (numbers in typed arrays, strings interned), a sorted order per column on first use,
 * the rows' filter text on the first filter, and each row's findings. The order, the text filter
 * and the narrowing to findings are the tab's own (its row order and its "Open findings only"),
 * so a window shows exactly what the tab would.
 */

/** The most rows one window holds, and how many it holds unless asked. */
export const WINDOW_MAX_LIMIT = 1_000;
export const WINDOW_DEFAULT_LIMIT = 100;

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
 * decided on is not open).
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
  return { ok: true, query: windowQuery(table, { offset, limit, sort, dir, q: text('q') ?? '', finding, open: open === 'true', triage }) };
}

/** One window: how many rows pass the filters, where the slice starts, and the slice. */
export interface ReportWindow {
  total: number;
  offset: number;
  rows: ReportRow[];
}

// Compact columns: each column once, in the form its sort needs (row-order.ts in the tab orders a
// column by number where every present cell is a number, by instant where every one is an ISO 8601
// timestamp, else by folded text).
type CompactColumn = { kind: 'number'; values: Float64Array; present: Uint8Array } | { kind: 'text'; ids: Uint32Array; strings: readonly CellValue[]; present: Uint8Array };

/** A column's order both ways: positions in the table. */
type ColumnOrder = { asc: Uint32Array; desc: Uint32Array };

interface TableIndex {
  table: string;
  columns: ReportColumn[];
  /** Indices into the result's rows of this table's rows, in the report's order. */
  rowIndices: Uint32Array;
  compact: Map<string, CompactColumn>;
  orders: Map<string, ColumnOrder>;
  searchText: string[] | null;
  /** Each row's findings (indices into the result's findings), worst first: row p's are `findingIndex[findingStart[p] .. findingStart[p + 1]]`. */
  findingStart: Uint32Array;
  findingIndex: Uint32Array;
  /** The default order by the open findings, for the last few sets of decisions seen. */
  defaultOrders: Map<string, Uint32Array>;
  /** Which rows pass each filter lately asked for (`filterOf`), the most recent last. */
  filters: Map<string, { passes: Uint8Array; passing: number }>;
  /** The `lastChanged` cell of each row where the load read the audit log. */
  changed: Array<string | null> | null;
}

interface ResultIndex {
  tables: Map<string, TableIndex>;
  tableKeys: string[];
  kinds: string[];
  severityRank: Uint8Array;
  /** The result's findings' fingerprints: only decisions about these change its windows. */
  fingerprints: ReadonlySet<string>;
  /** Each subject's findings (indices into the result's findings), worst first. */
  bySubject: ReadonlyMap<string, readonly number[]>;
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;
const SEVERITY_RANK: Record<FindingSeverity, number> = { high: 0, medium: 1, low: 2 };
const RANK_CLEAR = 3;
const DEFAULT_ORDERS_KEPT = 4;
const FILTERS_KEPT = 64;
/**
 * Items of work (rows visited, texts folded, texts merged) between two pauses of a stepped build: a
 * few milliseconds' work, so a server driving `prepare` answers other requests between steps.
 */
const WORK_PER_STEP = 16_384;
/** Texts sorted natively in one step before the runs are merged. */
const SORTED_RUN = 4_096;

/** Whether a stepped build pauses before the item at `at`. */
const pauseAt = (at: number): boolean => at % WORK_PER_STEP === WORK_PER_STEP - 1;

/** A stepped build run to its end at once: what a query needs now, when nothing built it ahead. */
function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * Texts in UTF-16 code unit order (what `sort()` with no comparator and `<` give, the tab's
 * comparison), a step at a time: runs sorted natively, then merged pairwise. One native sort of
 * 375,000 device names holds the thread for a second or more.
 */
function* sortTextsInSteps(texts: readonly string[]): Generator<void, string[]> {
  let from = texts.slice();
  for (let start = 0; start < from.length; start += SORTED_RUN) {
    const run = from.slice(start, start + SORTED_RUN).sort();
    for (let at = 0; at < run.length; at += 1) from[start + at] = run[at]!;
    yield;
  }
  let to = new Array<string>(from.length);
  let work = 0;
  for (let width = SORTED_RUN; width < from.length; width *= 2) {
    for (let left = 0; left < from.length; left += 2 * width) {
      const middle = Math.min(left + width, from.length);
      const end = Math.min(left + 2 * width, from.length);
      let a = left;
      let b = middle;
      let out = left;
      while (a < middle && b < end) {
        to[out++] = from[b]! < from[a]! ? from[b++]! : from[a++]!;
        if (++work === WORK_PER_STEP) {
          work = 0;
          yield;
        }
      }
      while (a < middle) to[out++] = from[a++]!;
      while (b < end) to[out++] = from[b++]!;
    }
    [from, to] = [to, from];
  }
  return from;
}

/** The decisions in force that bear on a result, as one text: what its default order, open rows and decided rows depend on. */
function decisionsKey(index: ResultIndex, inForce: DecisionsInForce | null): string {
  if (inForce === null) return 'unread';
  const bearing: string[] = [];
  for (const [fingerprint, decision] of inForce) if (index.fingerprints.has(fingerprint)) bearing.push(`${fingerprint}:${decision.state}`);
  return bearing.sort().join('\u0000');
}

/**
 * The report's tables and the windows over them, built on first use per result and kept while it is.
 * `sortBuilds` counts the column orders made: one per table, column and load however many ask.
 */
export class ReportWindows {
  private readonly indices = new WeakMap<ReportResult, ResultIndex>();
  private sorts = 0;

  /** The tables, columns and kinds a query of this result may name. */
  shape(result: ReportResult): WindowShape {
    const index = this.indexOf(result);
    return { tables: index.tableKeys, columnsOf: (table) => index.tables.get(table)?.columns.map((column) => column.key) ?? [], kinds: index.kinds };
  }

  /**
   * One window of a result for a viewer: `inForce` holds the decisions in force now (the caller's
   * tenant's), or null when they could not be read, when every finding counts as open and none as
   * decided, as the tab counts them then.
   */
  window(result: ReportResult, query: WindowQuery, inForce: DecisionsInForce | null): ReportWindow {
    const index = this.indexOf(result);
    const table = index.tables.get(query.table);
    if (!table) return { total: 0, offset: query.offset, rows: [] };
    const count = table.rowIndices.length;
    const order = query.sort === null ? this.defaultOrder(result, index, table, inForce) : this.columnOrder(table, result, query.sort)[query.dir];
    const words = query.q.toLowerCase().split(/\s+/).filter(Boolean);
    const picked: number[] = [];
    let total: number;
    if (words.length === 0 && query.finding === null && !query.open && query.triage === null) {
      total = count;
      for (let at = query.offset; at < Math.min(count, query.offset + query.limit); at += 1) picked.push(order[at]!);
    } else {
      const { passes, passing } = this.filterOf(result, index, table, words, query, inForce);
      total = passing;
      let seen = 0;
      for (let at = 0; at < count && picked.length < query.limit && seen < total; at += 1) {
        const position = order[at]!;
        if (!passes[position]) continue;
        if (seen >= query.offset) picked.push(position);
        seen += 1;
      }
    }
    return { total, offset: query.offset, rows: picked.map((position) => this.rowAt(result, table, position)) };
  }

  /**
   * The findings of a window's rows, each row's worst first: what the tab shows of a row in view
   * (its findings button and pane) without the whole report's findings.
   */
  findingsOf(result: ReportResult, rows: readonly ReportRow[]): Finding[] {
    const { bySubject } = this.indexOf(result);
    const found: Finding[] = [];
    for (const id of new Set(rows.map((row) => row.id))) if (typeof id === 'string') for (const at of bySubject.get(id) ?? []) found.push(result.findings[at]!);
    return found;
  }

  /**
   * The decisions in force that bear on this result's windows, as one text (`'unread'` when they
   * could not be read): two requests with the same text and query get the same window.
   */
  decisionsBearing(result: ReportResult, inForce: DecisionsInForce | null): string {
    return decisionsKey(this.indexOf(result), inForce);
  }

  /** How many column orders were built: once per table, column and result. */
  get sortBuilds(): number {
    return this.sorts;
  }

  /**
   * Everything a window of this result may ask for, built ahead a step at a time: the index, each
   * table's filter text and every column's order both ways. A server drives it between requests
   * once a large result is loaded (src/server/report-rows.ts), so the first viewer to sort a
   * 375,000-row table does not hold every other request for the seconds a cold sort takes. What it
   * has built is kept, as a query's own build is.
   */
  *prepare(result: ReportResult): Generator<void, void> {
    const index = yield* this.indexSteps(result);
    for (const table of index.tables.values()) {
      yield* this.searchTextSteps(table, result);
      for (const column of table.columns) yield* this.orderSteps(table, result, column.key);
    }
  }

  /**
   * Which rows pass a filter (the text's words, a finding kind, open or decided findings), one flag per row, and
   * how many: made once per filter and set of decisions and kept for the last few, so viewers paging
   * or sorting a filtered table scan flags rather than texts.
   */
  private filterOf(
    result: ReportResult,
    index: ResultIndex,
    table: TableIndex,
    words: readonly string[],
    query: WindowQuery,
    inForce: DecisionsInForce | null,
  ): { passes: Uint8Array; passing: number } {
    const key = JSON.stringify([words, query.finding, query.open, query.triage, query.open || query.triage !== null ? decisionsKey(index, inForce) : null]);
    const known = table.filters.get(key);
    if (known) {
      // The most recent last: the oldest goes first when there are too many.
      table.filters.delete(key);
      table.filters.set(key, known);
      return known;
    }
    const count = table.rowIndices.length;
    const texts = words.length > 0 ? this.searchTextOf(table, result) : null;
    const narrowed = query.finding !== null || query.open || query.triage !== null;
    const passes = new Uint8Array(count);
    let passing = 0;
    for (let position = 0; position < count; position += 1) {
      if (texts) {
        const text = texts[position]!;
        if (!words.every((word) => text.includes(word))) continue;
      }
      if (narrowed) {
        let found = false;
        for (let at = table.findingStart[position]!; at < table.findingStart[position + 1]! && !found; at += 1) {
          const finding = result.findings[table.findingIndex[at]!]!;
          found =
            (query.finding === null || finding.kind === query.finding) &&
            (!query.open || inForce === null || !inForce.has(finding.fingerprint)) &&
            (query.triage === null || inForce?.get(finding.fingerprint)?.state === query.triage);
        }
        if (!found) continue;
      }
      passes[position] = 1;
      passing += 1;
    }
    const filter = { passes, passing };
    if (table.filters.size >= FILTERS_KEPT) table.filters.delete(table.filters.keys().next().value!);
    table.filters.set(key, filter);
    return filter;
  }

  private rowAt(result: ReportResult, table: TableIndex, position: number): ReportRow {
    const row = result.rows[table.rowIndices[position]!]!;
    return table.changed ? { ...row, [CHANGED_COLUMN_KEY]: table.changed[position] ?? null } : row;
  }

  private indexOf(result: ReportResult): ResultIndex {
    return this.indices.get(result) ?? drain(this.indexSteps(result));
  }

  private *indexSteps(result: ReportResult): Generator<void, ResultIndex> {
    const known = this.indices.get(result);
    if (known) return known;
    const index = yield* buildIndex(result);
    this.indices.set(result, index);
    return index;
  }

  private cellOf(result: ReportResult, table: TableIndex, position: number, key: string): CellValue {
    if (key === CHANGED_COLUMN_KEY && table.changed) return table.changed[position] ?? null;
    return result.rows[table.rowIndices[position]!]![key] ?? null;
  }

  private *compactSteps(table: TableIndex, result: ReportResult, key: string): Generator<void, CompactColumn> {
    const known = table.compact.get(key);
    if (known) return known;
    const count = table.rowIndices.length;
    const present = new Uint8Array(count);
    let numbers = true;
    let instants = true;
    for (let position = 0; position < count; position += 1) {
      if (pauseAt(position)) yield;
      const value = this.cellOf(result, table, position, key);
      if (value === null) continue;
      present[position] = 1;
      if (typeof value !== 'number') numbers = false;
      if (typeof value !== 'string' || !ISO_TIMESTAMP.test(value)) instants = false;
    }
    let column: CompactColumn;
    if (numbers || instants) {
      const values = new Float64Array(count);
      for (let position = 0; position < count; position += 1) {
        if (pauseAt(position)) yield;
        if (!present[position]) continue;
        const value = this.cellOf(result, table, position, key);
        values[position] = numbers ? (value as number) : Date.parse(value as string);
      }
      column = { kind: 'number', values, present };
    } else {
      const ids = new Uint32Array(count);
      const strings: CellValue[] = [];
      const interned = new Map<CellValue, number>();
      for (let position = 0; position < count; position += 1) {
        if (pauseAt(position)) yield;
        if (!present[position]) continue;
        const value = this.cellOf(result, table, position, key);
        let id = interned.get(value);
        if (id === undefined) {
          id = strings.length;
          strings.push(value);
          interned.set(value, id);
        }
        ids[position] = id;
      }
      column = { kind: 'text', ids, strings, present };
    }
    table.compact.set(key, column);
    return column;
  }

  /**
   * A column's order both ways, built once: empty cells last either way, equal keys in the report's
   * order (descending reverses the runs of equal keys, not the rows within one, as the tab does).
   * Each distinct value is ranked once, then the rows are placed by rank in one counting pass.
   */
  private columnOrder(table: TableIndex, result: ReportResult, key: string): ColumnOrder {
    return table.orders.get(key) ?? drain(this.orderSteps(table, result, key));
  }

  private *orderSteps(table: TableIndex, result: ReportResult, key: string): Generator<void, ColumnOrder> {
    const known = table.orders.get(key);
    if (known) return known;
    const column = yield* this.compactSteps(table, result, key);
    const count = table.rowIndices.length;
    const { present } = column;
    const ranks = new Uint32Array(count);
    let distinct: number;
    if (column.kind === 'number') {
      // A typed array sorts natively, numerically: a few tens of milliseconds for 500,000 values.
      const values = Float64Array.from(column.values.filter((_, position) => present[position] === 1)).sort();
      yield;
      const rankOf = new Map<number, number>();
      for (const value of values) if (!rankOf.has(value)) rankOf.set(value, rankOf.size);
      distinct = rankOf.size;
      for (let position = 0; position < count; position += 1) {
        if (pauseAt(position)) yield;
        if (present[position]) ranks[position] = rankOf.get(column.values[position]!)!;
      }
    } else {
      // Each distinct text folded once; texts that fold alike share a rank.
      const folded = new Array<string>(column.strings.length);
      for (let at = 0; at < folded.length; at += 1) {
        if (pauseAt(at)) yield;
        folded[at] = windowTextSortKey(String(column.strings[at]));
      }
      const rankOf = new Map<string, number>();
      for (const text of yield* sortTextsInSteps([...new Set(folded)])) rankOf.set(text, rankOf.size);
      const rank = Uint32Array.from(folded, (text) => rankOf.get(text)!);
      distinct = rankOf.size;
      for (let position = 0; position < count; position += 1) {
        if (pauseAt(position)) yield;
        if (present[position]) ranks[position] = rank[column.ids[position]!]!;
      }
    }
    // Where each rank's rows start, empty cells after every rank.
    const starts = new Uint32Array(distinct + 2);
    for (let position = 0; position < count; position += 1) starts[(present[position] ? ranks[position]! : distinct) + 1]! += 1;
    for (let rank = 1; rank < starts.length; rank += 1) starts[rank]! += starts[rank - 1]!;
    const asc = new Uint32Array(count);
    const next = starts.slice(0, distinct + 1);
    for (let position = 0; position < count; position += 1) asc[next[present[position] ? ranks[position]! : distinct]!++] = position;
    const desc = new Uint32Array(count);
    let written = 0;
    for (let rank = distinct - 1; rank >= 0; rank -= 1) {
      desc.set(asc.subarray(starts[rank]!, starts[rank + 1]!), written);
      written += starts[rank + 1]! - starts[rank]!;
    }
    desc.set(asc.subarray(starts[distinct]!), written);
    const order = { asc, desc };
    this.sorts += 1;
    table.orders.set(key, order);
    return order;
  }

  /** The tab's order before anyone sorts: the worst open finding first, then the report's own order. */
  private defaultOrder(result: ReportResult, index: ResultIndex, table: TableIndex, inForce: DecisionsInForce | null): Uint32Array {
    const key = decisionsKey(index, inForce);
    const known = table.defaultOrders.get(key);
    if (known) return known;
    const count = table.rowIndices.length;
    const ranks = new Uint8Array(count);
    for (let position = 0; position < count; position += 1) {
      let rank = RANK_CLEAR;
      for (let at = table.findingStart[position]!; at < table.findingStart[position + 1]!; at += 1) {
        const finding = result.findings[table.findingIndex[at]!]!;
        if (inForce?.has(finding.fingerprint)) continue;
        rank = Math.min(rank, index.severityRank[table.findingIndex[at]!]!);
      }
      ranks[position] = rank;
    }
    // Placed by rank in one counting pass, each rank's rows in the report's order.
    const starts = new Uint32Array(RANK_CLEAR + 2);
    for (let position = 0; position < count; position += 1) starts[ranks[position]! + 1]! += 1;
    for (let rank = 1; rank < starts.length; rank += 1) starts[rank]! += starts[rank - 1]!;
    const order = new Uint32Array(count);
    for (let position = 0; position < count; position += 1) order[starts[ranks[position]!]!++] = position;
    if (table.defaultOrders.size >= DEFAULT_ORDERS_KEPT) table.defaultOrders.delete(table.defaultOrders.keys().next().value!);
    table.defaultOrders.set(key, order);
    return order;
  }

  /** Each row's visible cells, lower-cased, as the tab's filter reads them (row-order.ts `rowSearchText`). */
  private searchTextOf(table: TableIndex, result: ReportResult): string[] {
    return table.searchText ?? drain(this.searchTextSteps(table, result));
  }

  private *searchTextSteps(table: TableIndex, result: ReportResult): Generator<void, string[]> {
    if (table.searchText) return table.searchText;
    const shown = table.columns.filter((column) => column.available);
    const texts = new Array<string>(table.rowIndices.length);
    for (let position = 0; position < texts.length; position += 1) {
      if (pauseAt(position)) yield;
      texts[position] = shown
        .map((column) => {
          const value = this.cellOf(result, table, position, column.key);
          return value === null ? '' : String(value);
        })
        .join('\u0000')
        .toLowerCase();
    }
    table.searchText = texts;
    return texts;
  }
}

function* buildIndex(result: ReportResult): Generator<void, ResultIndex> {
  const changedAt = new Map<string, string>();
  const readLog = result.auditLog?.state === 'read';
  if (result.auditLog?.state === 'read') for (const [id, changes] of Object.entries(result.auditLog.changes)) if (changes[0]) changedAt.set(id.toLowerCase(), changes[0].at);
  const columns: ReportColumn[] = [...result.columns];
  if (readLog) {
    for (const section of [...new Set(result.columns.map((column) => column.section))]) {
      columns.push({ key: CHANGED_COLUMN_KEY, label: 'Changed', available: true, format: 'date', ...(section === undefined ? {} : { section }) });
    }
  }
  const tableKeys = [...new Set(columns.map((column) => column.section ?? ''))];
  const severityRank = Uint8Array.from(result.findings, (finding) => SEVERITY_RANK[findingKind(result.findingKinds, finding.kind).severity]);
  // Each subject's findings, worst first (as the tab lists a row's findings).
  const bySubject = new Map<string, number[]>();
  for (let at = 0; at < result.findings.length; at += 1) {
    if (pauseAt(at)) yield;
    const finding = result.findings[at]!;
    const found = bySubject.get(finding.subjectId);
    if (found) found.push(at);
    else bySubject.set(finding.subjectId, [at]);
  }
  for (const found of bySubject.values()) if (found.length > 1) found.sort((a, b) => severityRank[a]! - severityRank[b]! || a - b);
  yield;
  const sectioned = result.columns.some((column) => column.section !== undefined);
  const tables = new Map<string, TableIndex>();
  for (const table of tableKeys) {
    const rowIndices: number[] = [];
    for (let at = 0; at < result.rows.length; at += 1) {
      if (pauseAt(at)) yield;
      if (!sectioned || table === '' || result.rows[at]!.section === table) rowIndices.push(at);
    }
    const findingStart = new Uint32Array(rowIndices.length + 1);
    const findingIndex: number[] = [];
    for (let position = 0; position < rowIndices.length; position += 1) {
      if (pauseAt(position)) yield;
      const id = result.rows[rowIndices[position]!]!.id;
      if (typeof id === 'string') for (const at of bySubject.get(id) ?? []) findingIndex.push(at);
      findingStart[position + 1] = findingIndex.length;
    }
    tables.set(table, {
      table,
      columns: columns.filter((column) => (column.section ?? '') === table),
      rowIndices: Uint32Array.from(rowIndices),
      compact: new Map(),
      orders: new Map(),
      searchText: null,
      findingStart,
      findingIndex: Uint32Array.from(findingIndex),
      defaultOrders: new Map(),
      filters: new Map(),
      changed: readLog
        ? rowIndices.map((at) => {
            const id = result.rows[at]!.id;
            return typeof id === 'string' ? (changedAt.get(id.toLowerCase()) ?? null) : null;
          })
        : null,
    });
  }
  return { tables, tableKeys, kinds: Object.keys(result.findingKinds), severityRank, fingerprints: new Set(result.findings.map((finding) => finding.fingerprint)), bySubject };
}
