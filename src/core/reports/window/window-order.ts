import type { CellValue, ReportResult } from '../report-model.js';
import { windowTextSortKey } from '../row-keys.js';
import { RANK_CLEAR, WORK_PER_STEP, cellOf, decisionsKey, drain, pauseAt } from './window-index.js';
import type { ColumnOrder, CompactColumn, ResultIndex, TableIndex } from './window-index.js';
import type { DecisionsInForce } from './window-query.js';

/**
 * The orders a window is sliced from (docs/contract.md, "The server's endpoints", the rows): each
 * column's both ways, and the default order (the worst open finding first), built from a table's
 * index (window-index.ts) a step at a time where a server builds them ahead.
 */

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T/;
/** Default orders kept per table: one per set of decisions in force lately seen. */
const DEFAULT_ORDERS_KEPT = 4;
/** Texts sorted natively in one step before the runs are merged. */
const SORTED_RUN = 4_096;

/**
 * Texts in UTF-16 code unit order (what `sort()` with no comparator and `<` give), a step at a
 * time: runs sorted natively, then merged pairwise. One native sort of 375,000 device names holds
 * the thread for a second or more.
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

function* compactSteps(table: TableIndex, result: ReportResult, key: string): Generator<void, CompactColumn> {
  const known = table.compact.get(key);
  if (known) return known;
  const count = table.rowIndices.length;
  const present = new Uint8Array(count);
  let numbers = true;
  let instants = true;
  for (let position = 0; position < count; position += 1) {
    if (pauseAt(position)) yield;
    const value = cellOf(result, table, position, key);
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
      const value = cellOf(result, table, position, key);
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
      const value = cellOf(result, table, position, key);
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
export function columnOrder(table: TableIndex, result: ReportResult, key: string, onBuilt: () => void): ColumnOrder {
  return table.orders.get(key) ?? drain(columnOrderSteps(table, result, key, onBuilt));
}

/** `columnOrder` a step at a time; `onBuilt` is told of each order made (`ReportWindows.sortBuilds`). */
export function* columnOrderSteps(table: TableIndex, result: ReportResult, key: string, onBuilt: () => void): Generator<void, ColumnOrder> {
  const known = table.orders.get(key);
  if (known) return known;
  const column = yield* compactSteps(table, result, key);
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
  onBuilt();
  table.orders.set(key, order);
  return order;
}

/**
 * The tab's order before anyone sorts: the worst open finding first, then the report's own order;
 * a step at a time, as a request's window is made (`ReportWindows.windowSteps`).
 */
export function* defaultOrderSteps(result: ReportResult, index: ResultIndex, table: TableIndex, inForce: DecisionsInForce | null): Generator<void, Uint32Array> {
  const key = decisionsKey(index, inForce);
  const known = table.defaultOrders.get(key);
  if (known) return known;
  const count = table.rowIndices.length;
  const ranks = new Uint8Array(count);
  for (let position = 0; position < count; position += 1) {
    if (pauseAt(position)) yield;
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
  yield;
  for (let position = 0; position < count; position += 1) order[starts[ranks[position]!]!++] = position;
  if (table.defaultOrders.size >= DEFAULT_ORDERS_KEPT) table.defaultOrders.delete(table.defaultOrders.keys().next().value!);
  table.defaultOrders.set(key, order);
  return order;
}
