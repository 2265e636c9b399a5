import type { ReportResult } from './report-model.js';

/**
 * A report as the tab opens it (docs/contract.md, "The server's endpoints", `/preview`): the whole
 * result when it is small, else the first rows of each of its tables and those rows' findings, so
 * the first screen is drawn from a few kilobytes while the whole report is on its way. `whole` says
 * how large the result is, so a reader knows whether it holds everything.
 */
export interface ReportPreview extends ReportResult {
  whole: { rows: number; findings: number };
}

/**
 * Up to this many rows a result is previewed whole: a thousand rows parse and draw in a few
 * milliseconds, so cutting them would only cost a second request.
 */
export const PREVIEW_WHOLE_UP_TO_ROWS = 1_000;
/** Rows kept of each table of a larger result: more than a first screen shows on any display. */
export const PREVIEW_ROWS_PER_TABLE = 100;

export function previewReport(result: ReportResult): ReportPreview {
  const whole = { rows: result.rows.length, findings: result.findings.length };
  if (result.rows.length <= PREVIEW_WHOLE_UP_TO_ROWS) return { ...result, whole };
  // A table is a section (reports 5 and 6 have several); rows keep the report's own order, which is the tab's first order.
  const keptPerTable = new Map<unknown, number>();
  const rows = result.rows.filter((row) => {
    const kept = keptPerTable.get(row.section) ?? 0;
    if (kept >= PREVIEW_ROWS_PER_TABLE) return false;
    keptPerTable.set(row.section, kept + 1);
    return true;
  });
  // No table was long enough to cut: the result is whole, whatever findings name no row.
  if (rows.length === result.rows.length) return { ...result, whole };
  const subjects = new Set(rows.map((row) => row.id));
  return { ...result, rows, findings: result.findings.filter((finding) => subjects.has(finding.subjectId)), whole };
}

/** Whether a report holds fewer rows or findings than its whole result: a preview of a larger one. */
export function isPartialReport(report: ReportResult): report is ReportPreview {
  const { whole } = report as Partial<ReportPreview>;
  return whole !== undefined && (report.rows.length < whole.rows || report.findings.length < whole.findings);
}
