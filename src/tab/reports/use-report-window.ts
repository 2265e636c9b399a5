import { useCallback, useEffect, useRef, useState } from 'react';
import type { Finding, ReportLoadError, ReportId, ReportRow } from '../../core/reports/report-model.js';
import { ApiError } from '../api/report-api.js';
import type { ReportApi, RowsQuery } from '../api/report-api.js';
import type { WindowFilters } from './browser-rows.js';
import { WINDOW_PAGE_ROWS, dropFarPages } from './window-pages.js';

/** One table of a large report, read a page of rows at a time as they come into view. */
export interface ReportWindowView {
  /** How many rows pass the filters; null until the first window of these filters arrives. */
  total: number | null;
  /** The row at a position, or undefined while its page is on its way. */
  rowAt: (index: number) => ReportRow | undefined;
  /** A row's findings, worst first, as the window carried them. */
  findingsOf: (row: ReportRow) => Finding[];
  /** The rows in view (first and last index): their pages, and the next one when near its end, are fetched. */
  want: (first: number, last: number) => void;
  /** Rows being fetched, for a polite announcement; [] when none. */
  pending: Array<{ from: number; to: number }>;
  /** The load failed (the report's load error), or our API did. */
  loadError: ReportLoadError | null;
  error: ApiError | null;
  /** The load the rows are of. */
  generatedAt: string | null;
}

interface Pages {
  key: string;
  generatedAt: string | null;
  total: number | null;
  /** The count of the filters before, shown until this query's arrives so the table keeps its height. */
  shownTotal: number | null;
  rows: Map<number, ReportRow[]>;
  findings: Map<string, Finding[]>;
  inFlight: Map<number, AbortController>;
}

/**
 * A table's window state: pages of rows by offset, fetched as the table asks; the order and
 * filters are the server's, so a change of any of them (or of `freshness`: a newer load, a triage
 * decision) aborts what is under way and starts again from the first page. A page of a newer load
 * (another `generatedAt`) than the pages held drops them: rows of two loads are never mixed.
 */
export function useReportWindow(api: ReportApi, id: ReportId, table: string | null, filters: WindowFilters, freshness: string): ReportWindowView {
  const key = JSON.stringify([id, table, filters.sort, filters.q.trim(), filters.finding, filters.open, filters.triage, freshness]);
  const pages = useRef<Pages>({ key: '', generatedAt: null, total: null, shownTotal: null, rows: new Map(), findings: new Map(), inFlight: new Map() });
  const [, setVersion] = useState(0);
  const [failure, setFailure] = useState<{ loadError: ReportLoadError | null; error: ApiError | null }>({ loadError: null, error: null });
  const rerender = useCallback(() => setVersion((version) => version + 1), []);

  const fetchPage = useCallback(
    (page: number) => {
      const held = pages.current;
      if (held.rows.has(page) || held.inFlight.has(page)) return;
      if (held.total !== null && page * WINDOW_PAGE_ROWS >= held.total) return;
      const controller = new AbortController();
      held.inFlight.set(page, controller);
      const query: RowsQuery = {
        table,
        offset: page * WINDOW_PAGE_ROWS,
        limit: WINDOW_PAGE_ROWS,
        sort: filters.sort?.columnKey ?? null,
        dir: filters.sort?.direction === 'descending' ? 'desc' : 'asc',
        q: filters.q.trim(),
        finding: filters.finding,
        open: filters.open,
        triage: filters.triage,
      };
      api.rows(id, query, controller.signal).then(
        ({ value: window }) => {
          if (controller.signal.aborted || pages.current !== held) return;
          held.inFlight.delete(page);
          if (window.state === 'load-error') {
            setFailure({ loadError: window.error ?? { status: null, message: window.notice ?? 'The report could not be loaded.' }, error: null } as {
              loadError: ReportLoadError;
              error: null;
            });
            rerender();
            return;
          }
          if (held.generatedAt !== null && held.generatedAt !== window.generatedAt) {
            // A window of another load: what is held is of the older one.
            held.rows.clear();
            held.findings.clear();
          }
          held.generatedAt = window.generatedAt;
          held.total = window.total;
          held.rows.set(page, window.rows);
          dropFarPages(held, page);
          for (const finding of window.findings) {
            const found = held.findings.get(finding.subjectId);
            if (found) {
              if (!found.includes(finding)) found.push(finding);
            } else held.findings.set(finding.subjectId, [finding]);
          }
          setFailure((previous) => (previous.error || previous.loadError ? { loadError: null, error: null } : previous));
          rerender();
        },
        (error: unknown) => {
          if (controller.signal.aborted || pages.current !== held) return;
          held.inFlight.delete(page);
          if (!(error instanceof ApiError)) throw error;
          setFailure({ loadError: null, error });
          rerender();
        },
      );
      rerender();
    },
    // The key names everything the query holds (table, order, filters, freshness).
    [api, key],
  );

  // New filters, a new order, a newer load: what is under way is superseded; start from the first page.
  useEffect(() => {
    const previous = pages.current;
    for (const controller of previous.inFlight.values()) controller.abort();
    // The count shown stays until the new one arrives, so the table keeps its height rather than
    // empty; none (placeholders) after a count of no rows. It never bounds what is asked for.
    pages.current = {
      key,
      generatedAt: previous.generatedAt,
      total: null,
      shownTotal: previous.total ?? previous.shownTotal,
      rows: new Map(),
      findings: new Map(),
      inFlight: new Map(),
    };
    setFailure({ loadError: null, error: null });
    fetchPage(0);
    return () => {
      for (const controller of pages.current.inFlight.values()) controller.abort();
    };
  }, [key, fetchPage]);

  const want = useCallback(
    (first: number, last: number) => {
      const from = Math.floor(Math.max(0, first) / WINDOW_PAGE_ROWS);
      // A little ahead: the next page once the view is in the second half of this one.
      const to = Math.floor((Math.max(first, last) + WINDOW_PAGE_ROWS / 2) / WINDOW_PAGE_ROWS);
      for (let page = from; page <= to; page += 1) fetchPage(page);
    },
    [fetchPage],
  );

  const held = pages.current;
  const pending = [...held.inFlight.keys()]
    .sort((a, b) => a - b)
    .map((page) => ({ from: page * WINDOW_PAGE_ROWS + 1, to: held.total === null ? (page + 1) * WINDOW_PAGE_ROWS : Math.min(held.total, (page + 1) * WINDOW_PAGE_ROWS) }));
  const rowAt = useCallback((index: number) => pages.current.rows.get(Math.floor(index / WINDOW_PAGE_ROWS))?.[index % WINDOW_PAGE_ROWS], []);
  const findingsOf = useCallback((row: ReportRow) => (typeof row.id === 'string' ? (pages.current.findings.get(row.id) ?? []) : []), []);
  // A new object each render: the pages are mutated in place, and the table redraws what arrived.
  return { total: held.total ?? (held.shownTotal || null), rowAt, findingsOf, want, pending, loadError: failure.loadError, error: failure.error, generatedAt: held.generatedAt };
}
