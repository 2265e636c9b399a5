import type { CellValue, ReportColumn, ReportRow } from '../../../../src/core/reports/report-model.js';
import { windowTextSortKey } from '../../../../src/core/reports/row-keys.js';

/**
 * The order, the filter and the default order a report's windows promise (docs/contract.md, "The
 * server's endpoints", the rows), written the plain way: a comparator sort, a substring scan. The
 * tab ordered its tables with this code before it windowed them with the server's; the window tests
 * hold the indexed, stepped build (report-window.ts) to it.
 */

export type SortDirection = 'ascending' | 'descending';

export interface SortState {
  columnKey: string;
  direction: SortDirection;
}

const textSortKey = windowTextSortKey;

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;

/** A column's cells as comparable keys: numbers as they are, timestamps as instants, text folded. */
function sortKeys(rows: readonly ReportRow[], columnKey: string): Array<number | string | null> {
  const values = rows.map((row) => row[columnKey] ?? null);
  const present = values.filter((value) => value !== null);
  if (present.every((value) => typeof value === 'number')) return values as Array<number | null>;
  if (present.every((value) => typeof value === 'string' && ISO_TIMESTAMP.test(value))) return values.map((value) => (value === null ? null : Date.parse(value as string)));
  return values.map((value) => (value === null ? null : textSortKey(String(value))));
}

/**
 * A column's ascending order: row indices, and where each run of equal keys starts (so that a
 * descending order can keep equal rows in the report's own order). Empty cells come last.
 */
interface ColumnOrder {
  indices: Int32Array;
  /** 1 where the key differs from the one before; the trailing empty cells are one run. */
  runStarts: Uint8Array;
  /** Where the empty cells begin. */
  emptyFrom: number;
}

/**
 * Orders computed per table and column, kept while the table is: a second click on the same header
 * (or coming back to a column) reverses or reuses the order instead of sorting 100,000 rows again.
 */
const columnOrders = new WeakMap<readonly ReportRow[], Map<string, ColumnOrder>>();

function columnOrder(rows: readonly ReportRow[], columnKey: string): ColumnOrder {
  let orders = columnOrders.get(rows);
  if (!orders) columnOrders.set(rows, (orders = new Map()));
  const known = orders.get(columnKey);
  if (known) return known;

  const keys = sortKeys(rows, columnKey);
  const indices = Int32Array.from(rows.keys());
  indices.sort((a, b) => {
    const left = keys[a] ?? null;
    const right = keys[b] ?? null;
    if (left === null || right === null) return left === right ? a - b : left === null ? 1 : -1;
    return left < right ? -1 : left > right ? 1 : a - b;
  });
  const runStarts = new Uint8Array(indices.length);
  let emptyFrom = indices.length;
  for (let position = 0; position < indices.length; position += 1) {
    const key = keys[indices[position]!] ?? null;
    if (key === null) {
      emptyFrom = Math.min(emptyFrom, position);
      runStarts[position] = position === emptyFrom ? 1 : 0;
      continue;
    }
    runStarts[position] = position === 0 || key !== keys[indices[position - 1]!] ? 1 : 0;
  }
  const order = { indices, runStarts, emptyFrom };
  orders.set(columnKey, order);
  return order;
}

/**
 * Row indices ordered by one column. Empty cells go last in either direction (nothing to compare
 * is not "smallest"); equal cells keep the report's own order, which is meaningful (worst first).
 */
export function sortedOrder(rows: readonly ReportRow[], sort: SortState): Int32Array {
  const { indices, runStarts, emptyFrom } = columnOrder(rows, sort.columnKey);
  if (sort.direction === 'ascending') return indices;
  const descending = new Int32Array(indices.length);
  let written = 0;
  let runEnd = emptyFrom;
  for (let position = emptyFrom - 1; position >= 0; position -= 1) {
    if (runStarts[position] !== 1) continue;
    descending.set(indices.subarray(position, runEnd), written);
    written += runEnd - position;
    runEnd = position;
  }
  descending.set(indices.subarray(emptyFrom), written);
  return descending;
}

/**
 * Text to match a filter against, one per row: every shown cell, lower-cased once so that typing
 * in the filter box over 100,000 rows stays a plain substring scan.
 */
export function rowSearchText(row: ReportRow, columns: readonly ReportColumn[]): string {
  return columns
    .filter((column) => column.available)
    .map((column) => cellSearchText(row[column.key] ?? null))
    .join('\u0000')
    .toLowerCase();
}

function cellSearchText(value: CellValue): string {
  return value === null ? '' : String(value);
}

/**
 * The rows to show: `order` (all row indices, sorted or not) narrowed to those whose shown cells
 * contain every word of the query. Filtering after sorting lets a table keep one sort per column
 * however the filter changes.
 */
export function visibleRows(rows: readonly ReportRow[], order: Int32Array, searchText: readonly string[], query: string): ReportRow[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const shown: ReportRow[] = [];
  for (const index of order) {
    const text = searchText[index] ?? '';
    if (words.every((word) => text.includes(word))) shown.push(rows[index] as ReportRow);
  }
  return shown;
}

/**
 * The rows' default order: the worst finding first (`rank`, 0 for High; rows without one rank after
 * every finding), and within a rank the report's own order, which is its own measure (report 6's
 * slowest start first): what matters is on the first screen before anything is sorted.
 */
export function worstFirstOrder(rows: readonly ReportRow[], rank: (row: ReportRow) => number): Int32Array {
  const ranks = rows.map(rank);
  return Int32Array.from(rows.keys()).sort((a, b) => ranks[a]! - ranks[b]! || a - b);
}
