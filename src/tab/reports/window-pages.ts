import type { Finding, ReportRow } from '../../core/reports/report-model.js';

/** Rows asked for at once: a screenful or two, so scrolling asks rarely and each answer stays a few kilobytes. */
export const WINDOW_PAGE_ROWS = 100;
/**
 * Pages kept at once: a few screens either side of any place a viewer scrolls to. Further pages are
 * dropped, farthest from the page just read first (asked for again if scrolled back to), so reading
 * through 500,000 rows never holds them all in a phone's memory.
 */
export const WINDOW_PAGES_KEPT = 60;

/** Keeps `WINDOW_PAGES_KEPT` pages, dropping those farthest from `near` and the findings of their rows. */
export function dropFarPages(held: { rows: Map<number, ReportRow[]>; findings: Map<string, Finding[]> }, near: number): void {
  if (held.rows.size <= WINDOW_PAGES_KEPT) return;
  const farthestFirst = [...held.rows.keys()].sort((a, b) => Math.abs(b - near) - Math.abs(a - near));
  for (const page of farthestFirst.slice(0, held.rows.size - WINDOW_PAGES_KEPT)) {
    for (const row of held.rows.get(page) ?? []) if (typeof row.id === 'string') held.findings.delete(row.id);
    held.rows.delete(page);
  }
}
