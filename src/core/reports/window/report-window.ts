import type { Finding, ReportResult, ReportRow } from '../report-model.js';
import { CHANGED_COLUMN_KEY, windowTextSortKey } from '../row-keys.js';
import { PassingRows, SEARCHES_PER_STEP, buildIndex, decisionsKey, drain, pauseAtLookup, searchTextSteps } from './window-index.js';
import type { ResultIndex, TableIndex } from './window-index.js';
import { columnOrderSteps, defaultOrderSteps } from './window-order.js';
import { filterWords } from './window-query.js';
import type { DecisionsInForce, WindowQuery, WindowShape } from './window-query.js';

export { CHANGED_COLUMN_KEY, windowTextSortKey };
export { WINDOW_DEFAULT_LIMIT, WINDOW_MAX_LIMIT, WINDOW_Q_MAX_CHARACTERS, WINDOW_Q_MAX_WORDS, parseWindowQuery, windowQuery } from './window-query.js';
export type { DecisionsInForce, WindowDirection, WindowQuery, WindowQueryError, WindowShape } from './window-query.js';

/**
 * A window over one table of a report's result (docs/contract.md, "The server's endpoints", the
 * rows): filtered, ordered and sliced, so a viewer of a very large tenant reads the rows in view
 * rather than the whole report. Pure and browser-safe: the server answers `/rows` with it, and the
 * tab windows a report it holds whole with the same code, so both show the same rows in the same
 * order. Everything a query needs is built once per result and kept as long as the result is: per
 * table, each column's values held compactly (numbers in typed arrays, strings interned), a sorted
 * order per column on first use, the rows' filter text on the first filter, and each row's findings
 * (window-index.ts, window-order.ts; the query and its parameters are window-query.ts).
 */

/** One window: how many rows pass the filters, where the slice starts, and the slice. */
export interface ReportWindow {
  total: number;
  offset: number;
  rows: ReportRow[];
}

/**
 * The filters kept per table, the least recently asked for dropped first: at most this many, and at
 * most `FILTER_BYTES_KEPT` of them. A tenant's viewers may ask a hundred distinct filters in a
 * minute (one in five requests filtered by a two-digit number, docs/performance.md); a filter
 * dropped and asked again is worked out again, over every row's text.
 */
const FILTERS_KEPT = 1_024;
/** 16 MB: 340 filters of a 375,000-row table, at a bit a row. */
const FILTER_BYTES_KEPT = 16 * 1024 * 1024;

/**
 * The report's tables and the windows over them, built on first use per result and kept while it is.
 * `sortBuilds` counts the column orders made: one per table, column and load however many ask;
 * `indexBuilds` the indices begun: one per load; `filterBuilds` the filters worked out.
 */
export class ReportWindows {
  private readonly indices = new WeakMap<ReportResult, ResultIndex>();
  /** An index being built a step at a time: every caller takes steps of this one build, none starts another. */
  private readonly building = new WeakMap<ReportResult, Generator<void, ResultIndex>>();
  private sorts = 0;
  private indexes = 0;
  private filters = 0;
  private readonly countBuild = () => {
    this.sorts += 1;
  };

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
    return drain(this.windowSteps(result, query, inForce));
  }

  /**
   * `window` a step at a time: a server drives it a step per turn of the event loop
   * (src/server/report-rows.ts), so a filter over a large table, or an order not built yet, does not
   * hold every other request while it runs. Each step is a few milliseconds' work (`WORK_PER_STEP`,
   * `SEARCHES_PER_STEP`).
   */
  *windowSteps(result: ReportResult, query: WindowQuery, inForce: DecisionsInForce | null): Generator<void, ReportWindow> {
    const index = yield* this.indexSteps(result);
    const table = index.tables.get(query.table);
    if (!table) return { total: 0, offset: query.offset, rows: [] };
    const count = table.rowIndices.length;
    const order = query.sort === null ? yield* defaultOrderSteps(result, index, table, inForce) : (yield* columnOrderSteps(table, result, query.sort, this.countBuild))[query.dir];
    const words = filterWords(query.q);
    const picked: number[] = [];
    let total: number;
    if (words.length === 0 && query.finding === null && !query.open && query.triage === null) {
      total = count;
      for (let at = query.offset; at < Math.min(count, query.offset + query.limit); at += 1) picked.push(order[at]!);
    } else {
      const filter = yield* this.filterSteps(result, index, table, words, query, inForce);
      total = filter.passing;
      let seen = 0;
      for (let at = 0; at < count && picked.length < query.limit && seen < total; at += 1) {
        if (pauseAtLookup(at)) yield;
        const position = order[at]!;
        if (!filter.passes(position)) continue;
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

  /** A subject's findings (a row's `id`), worst first: from the index, so built once per result. */
  findingsOfSubject(result: ReportResult, subjectId: string): Finding[] {
    return (this.indexOf(result).bySubject.get(subjectId) ?? []).map((at) => result.findings[at]!);
  }

  /** The result's index (its tables and each subject's findings) built a step at a time, as `prepare` builds it first. */
  *indexed(result: ReportResult): Generator<void, void> {
    yield* this.indexSteps(result);
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

  /** How many indices were begun: once per result, however many callers build it at once. */
  get indexBuilds(): number {
    return this.indexes;
  }

  /** How many filters' passing rows were worked out: once per filter while it is kept (`FILTERS_KEPT`), again once dropped. */
  get filterBuilds(): number {
    return this.filters;
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
      yield* searchTextSteps(table, result);
      for (const column of table.columns) yield* columnOrderSteps(table, result, column.key, this.countBuild);
    }
  }

  /**
   * Which rows pass a filter (the text's words, a finding kind, open or decided findings), one flag
   * per row, and how many, a step at a time: made once per filter and set of decisions and kept for
   * the last few (a bounded list, the least recently asked for dropped first), so viewers paging or
   * sorting a filtered table scan flags rather than texts. The same words in another order or
   * repeated are the same filter.
   */
  private *filterSteps(
    result: ReportResult,
    index: ResultIndex,
    table: TableIndex,
    words: readonly string[],
    query: WindowQuery,
    inForce: DecisionsInForce | null,
  ): Generator<void, PassingRows> {
    const distinctWords = [...new Set(words)].sort();
    const key = JSON.stringify([distinctWords, query.finding, query.open, query.triage, query.open || query.triage !== null ? decisionsKey(index, inForce) : null]);
    const known = table.filters.get(key);
    if (known) {
      // The most recent last: the oldest goes first when there are too many.
      table.filters.delete(key);
      table.filters.set(key, known);
      return known;
    }
    this.filters += 1;
    const count = table.rowIndices.length;
    const texts = distinctWords.length > 0 ? yield* searchTextSteps(table, result) : null;
    const narrowed = query.finding !== null || query.open || query.triage !== null;
    const filter = new PassingRows(count);
    // A row costs a look per word and per finding: the pauses count those, not rows.
    let work = 0;
    for (let position = 0; position < count; position += 1) {
      if (work >= SEARCHES_PER_STEP) {
        work = 0;
        yield;
      }
      work += 1;
      if (texts) {
        const text = texts[position]!;
        work += distinctWords.length;
        let all = true;
        for (let word = 0; word < distinctWords.length && all; word += 1) all = text.includes(distinctWords[word]!);
        if (!all) continue;
      }
      if (narrowed) {
        let found = false;
        for (let at = table.findingStart[position]!; at < table.findingStart[position + 1]! && !found; at += 1) {
          work += 1;
          const finding = result.findings[table.findingIndex[at]!]!;
          found =
            (query.finding === null || finding.kind === query.finding) &&
            (!query.open || inForce === null || !inForce.has(finding.fingerprint)) &&
            (query.triage === null || inForce?.get(finding.fingerprint)?.state === query.triage);
        }
        if (!found) continue;
      }
      filter.pass(position);
    }
    table.filters.delete(key);
    let bytes = filter.bytes;
    for (const kept of table.filters.values()) bytes += kept.bytes;
    // The least recently asked for go first (a Map keeps the order they were set in).
    for (const [oldest, kept] of table.filters) {
      if (table.filters.size < FILTERS_KEPT && bytes <= FILTER_BYTES_KEPT) break;
      table.filters.delete(oldest);
      bytes -= kept.bytes;
    }
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

  /**
   * The index, built once per result: a caller that finds it being built (a CSV export meeting the
   * server's preparation, src/server/report-rows.ts) takes steps of that build rather than starting
   * its own, and either finishes it. A build that throws (a bug) is dropped, so the next caller starts afresh.
   */
  private *indexSteps(result: ReportResult): Generator<void, ResultIndex> {
    for (;;) {
      const known = this.indices.get(result);
      if (known) return known;
      let build = this.building.get(result);
      if (!build) {
        build = buildIndex(result);
        this.building.set(result, build);
        this.indexes += 1;
      }
      let step: IteratorResult<void, ResultIndex>;
      try {
        step = build.next();
      } catch (error) {
        this.building.delete(result);
        throw error;
      }
      if (step.done) {
        this.indices.set(result, step.value);
        this.building.delete(result);
        return step.value;
      }
      yield;
    }
  }
}
