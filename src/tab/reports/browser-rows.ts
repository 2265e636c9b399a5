import { ReportWindows, windowQuery } from '../../core/reports/window/report-window.js';
import type { DecisionsInForce } from '../../core/reports/window/report-window.js';
import type { Finding, ReportResult, ReportRow } from '../../core/reports/report-model.js';
import type { TriageState } from '../../core/triage/triage-book.js';
import type { SortState } from '../table/sort-state.js';

/**
 * The windows of the reports the browser holds whole: the same pure code the server answers
 * `GET /api/reports/:id/rows` with (report-window.ts), so a report read whole and one read in
 * windows from the server are ordered, filtered and narrowed alike. Each result is indexed once, on
 * first use, and kept as long as the result is (a WeakMap inside), so one set serves the page.
 */
const BROWSER_WINDOWS = new ReportWindows();

/** Every row at once: the browser holds the whole table, and the table draws only the rows in view. */
const ALL_ROWS = Number.MAX_SAFE_INTEGER;

/** What a table shows: its order and filters, the same whether the browser or the server windows it (docs/contract.md, the rows). */
export interface WindowFilters {
  sort: SortState | null;
  /** The text filter (debounced by the caller where each change is a request to the server). */
  q: string;
  finding: string | null;
  open: boolean;
  triage: TriageState | null;
}

/**
 * One table of a report held whole, filtered and ordered as `filters` say: every row that passes,
 * in order. `inForce` holds the decisions in force now, as the server's windows take them; empty
 * while they are being read, when every finding counts as open.
 */
export function browserRows(report: ReportResult, table: string | null, filters: WindowFilters, inForce: DecisionsInForce): ReportRow[] {
  const query = windowQuery(table ?? '', {
    limit: ALL_ROWS,
    sort: filters.sort?.columnKey ?? null,
    dir: filters.sort?.direction === 'descending' ? 'desc' : 'asc',
    q: filters.q,
    finding: filters.finding,
    open: filters.open,
    triage: filters.triage,
  });
  return BROWSER_WINDOWS.window(report, query, inForce).rows;
}

/** A row's findings, worst first, as a window from the server carries them. */
export function browserFindingsOf(report: ReportResult, row: ReportRow): Finding[] {
  return BROWSER_WINDOWS.findingsOf(report, [row]);
}
