/**
 * From how many rows the tab reads a report in windows from the server (`GET /api/reports/:id/rows`)
 * rather than downloading it whole. Below it the whole report is the faster way: one request, then
 * sorting and filtering in the browser with no round trip. The tab's bench with report 4 at 101,329
 * rows (docs/performance.md, "The tab in the browser") paints the whole report 399 ms after it arrives (target 1,500) and
 * sorts a column in 92 to 111 ms (target 200), both growing in step with the rows: past about
 * 180,000 rows a sort misses its target and the download passes 7 MB, while a window costs one
 * request of 100 rows whatever the size. 150,000 keeps every tenant the whole path still serves
 * within its targets on that path (report 4 of a 135,000-device tenant included) and windows the
 * larger ones.
 */
export const WINDOW_FROM_ROWS = 150_000;

/**
 * The threshold for this page: `WINDOW_FROM_ROWS`, or the tab page's `windowFrom` query parameter
 * (`/tab/?windowFrom=2000`), a whole number from 1, so a small tenant can be read in windows (the
 * tab's tests do) and the switch can be tried without a tenant of 200,000 devices.
 */
export function windowFromRows(search: string = typeof location === 'undefined' ? '' : location.search): number {
  const given = new URLSearchParams(search).get('windowFrom');
  const value = given !== null && /^\d+$/.test(given) ? Number(given) : NaN;
  return Number.isSafeInteger(value) && value >= 1 ? value : WINDOW_FROM_ROWS;
}
