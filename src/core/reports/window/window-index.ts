import { findingKind } from '../../findings/finding-kinds.js';
import type { FindingSeverity } from '../../findings/finding-kinds.js';
import type { CellValue, ReportColumn, ReportResult } from '../report-model.js';
import { CHANGED_COLUMN_KEY } from '../row-keys.js';
import type { DecisionsInForce } from './window-query.js';

/**
 * A report's result indexed for its windows (docs/contract.md, "The server's endpoints", the rows):
 * per table, its rows as indices into the result, each row's findings worst first, and room for
 * what the windows build on first use (compact columns, orders, filter text, filters). Built a step
 * at a time, so a server can build a large one between requests (`ReportWindows.prepare`).
 */

/**
 * A column held compactly, once, in the form its sort needs: by number where every present cell is
 * a number, by instant where every one is an ISO 8601 timestamp, else by folded text (window-order.ts).
 */
export type CompactColumn = { kind: 'number'; values: Float64Array; present: Uint8Array } | { kind: 'text'; ids: Uint32Array; strings: readonly CellValue[]; present: Uint8Array };

/** A column's order both ways: positions in the table. */
export type ColumnOrder = { asc: Uint32Array; desc: Uint32Array };

export interface TableIndex {
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
  filters: Map<string, PassingRows>;
  /** The `lastChanged` cell of each row where the load read the audit log. */
  changed: Array<string | null> | null;
}

export interface ResultIndex {
  tables: Map<string, TableIndex>;
  tableKeys: string[];
  kinds: string[];
  severityRank: Uint8Array;
  /** The result's findings' fingerprints: only decisions about these change its windows. */
  fingerprints: ReadonlySet<string>;
  /** Each subject's findings (indices into the result's findings), worst first. */
  bySubject: ReadonlyMap<string, readonly number[]>;
}

const SEVERITY_RANK: Record<FindingSeverity, number> = { high: 0, medium: 1, low: 2 };
/** A row's rank in the default order when it has no open finding: after every severity. */
export const RANK_CLEAR = 3;
/**
 * Items of work (rows visited, texts folded, texts merged) between two pauses of a stepped build: a
 * few milliseconds' work, so a server driving `prepare` answers other requests between steps.
 */
export const WORK_PER_STEP = 16_384;

/** Whether a stepped build pauses before the item at `at`. */
export const pauseAt = (at: number): boolean => at % WORK_PER_STEP === WORK_PER_STEP - 1;

/**
 * Rows looked up in a filter kept (one bit each) between two pauses of a window's slice: a look-up
 * costs a small part of an item of work (a text searched, a finding weighed), so a slice of a
 * 375,000-row table passes in one step rather than in twenty-three turns of the event loop, each
 * spent behind every other viewer's steps.
 */
const LOOKUPS_PER_STEP = WORK_PER_STEP * 32;

/**
 * Texts searched for a word (and findings weighed) between two pauses of a filter being worked out:
 * a search of a row's text for a short word takes about 50 ns, so `WORK_PER_STEP` of them were half a
 * millisecond, and a filter over a 375,000-row table waited for forty-six turns of the event loop,
 * each spent behind every other viewer's steps (docs/performance.md, "Many filters"). Eight times as
 * many is a few milliseconds: six turns.
 */
export const SEARCHES_PER_STEP = WORK_PER_STEP * 8;

/** Whether a slice through a filter kept pauses before the row at `at`. */
export const pauseAtLookup = (at: number): boolean => at % LOOKUPS_PER_STEP === LOOKUPS_PER_STEP - 1;

/**
 * The rows of a table that pass one filter, one bit a row (a 375,000-row table's filter is 47 KB),
 * and how many: what a window keeps per filter, so that paging or sorting a filtered table looks up
 * bits rather than searching texts again.
 */
export class PassingRows {
  private readonly bits: Uint8Array;
  passing = 0;

  constructor(readonly count: number) {
    this.bits = new Uint8Array(Math.ceil(count / 8));
  }

  /** The bytes it holds, for a bound on the filters kept. */
  get bytes(): number {
    return this.bits.byteLength;
  }

  pass(position: number): void {
    this.bits[position >> 3]! |= 1 << (position & 7);
    this.passing += 1;
  }

  passes(position: number): boolean {
    return ((this.bits[position >> 3]! >> (position & 7)) & 1) === 1;
  }
}

/** A stepped build run to its end at once: what a query needs now, when nothing built it ahead. */
export function drain<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** The decisions in force that bear on a result, as one text: what its default order, open rows and decided rows depend on. */
export function decisionsKey(index: ResultIndex, inForce: DecisionsInForce | null): string {
  if (inForce === null) return 'unread';
  const bearing: string[] = [];
  for (const [fingerprint, decision] of inForce) if (index.fingerprints.has(fingerprint)) bearing.push(`${fingerprint}:${decision.state}`);
  return bearing.sort().join('\u0000');
}

/** Each row's visible cells, lower-cased, the text a filter's words are looked for in. */
export function searchTextOf(table: TableIndex, result: ReportResult): string[] {
  return table.searchText ?? drain(searchTextSteps(table, result));
}

export function* searchTextSteps(table: TableIndex, result: ReportResult): Generator<void, string[]> {
  if (table.searchText) return table.searchText;
  const shown = table.columns.filter((column) => column.available);
  const texts = new Array<string>(table.rowIndices.length);
  for (let position = 0; position < texts.length; position += 1) {
    if (pauseAt(position)) yield;
    texts[position] = shown
      .map((column) => {
        const value = cellOf(result, table, position, column.key);
        return value === null ? '' : String(value);
      })
      .join('\u0000')
      .toLowerCase();
  }
  table.searchText = texts;
  return texts;
}
/** A row's cell, by its position in the table: the Changed column's from the audit log, the others the row's own. */
export function cellOf(result: ReportResult, table: TableIndex, position: number, key: string): CellValue {
  if (key === CHANGED_COLUMN_KEY && table.changed) return table.changed[position] ?? null;
  return result.rows[table.rowIndices[position]!]![key] ?? null;
}

/** A result's index, a step at a time: its tables, each row's findings worst first, the Changed column where the load read the audit log. */
export function* buildIndex(result: ReportResult): Generator<void, ResultIndex> {
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
  // Each finding's rank and fingerprint, and each subject's findings, worst first (as the tab lists a row's findings).
  const severityRank = new Uint8Array(result.findings.length);
  const rankOfKind = new Map<string, number>();
  const fingerprints = new Set<string>();
  const bySubject = new Map<string, number[]>();
  for (let at = 0; at < result.findings.length; at += 1) {
    if (pauseAt(at)) yield;
    const finding = result.findings[at]!;
    let rank = rankOfKind.get(finding.kind);
    if (rank === undefined) rankOfKind.set(finding.kind, (rank = SEVERITY_RANK[findingKind(result.findingKinds, finding.kind).severity]));
    severityRank[at] = rank;
    fingerprints.add(finding.fingerprint);
    const found = bySubject.get(finding.subjectId);
    if (found) found.push(at);
    else bySubject.set(finding.subjectId, [at]);
  }
  let sorted = 0;
  for (const found of bySubject.values()) {
    if (pauseAt(sorted++)) yield;
    if (found.length > 1) found.sort((a, b) => severityRank[a]! - severityRank[b]! || a - b);
  }
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
  return { tables, tableKeys, kinds: Object.keys(result.findingKinds), severityRank, fingerprints, bySubject };
}
