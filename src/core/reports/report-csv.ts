import { findingKind, findingsBySubject } from '../findings/finding-kinds.js';
import { singleLine } from './graph-values.js';
import type { CellValue, Finding, ReportColumn, ReportResult, ReportRow } from './report-model.js';

/**
 * A report table as CSV (RFC 4180: comma-separated, CRLF line ends, fields quoted when they hold a
 * comma or quote), one line per row: tenant text is flattened to one line first. Text that a
 * spreadsheet would run as a formula (starting with =, +, -, @, tab or CR, after any white space a
 * spreadsheet skips) is prefixed with a quote:
 * device and policy names come from the tenant, and OWASP's CSV-injection guidance applies to any
 * export an admin opens in Excel. Pure, so the tab can use it in the browser as well. Columns shown
 * as n/a export as "n/a". After the report's own columns come the row's findings: their kinds, the
 * worst severity and their details, so a spreadsheet can be sorted and filtered by them.
 */
export function reportToCsv(report: Pick<ReportResult, 'columns' | 'rows' | 'findings' | 'findingKinds'>): string {
  const encoder = csvEncoder(report);
  const lines = [encoder.header];
  for (const row of report.rows) lines.push(encoder.line(row));
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The CSV's header line and a row's line (without their CRLF), as `reportToCsv` writes them: shared
 * by the whole text and by a server writing a large report's CSV as it goes, so both are the same bytes.
 * `findingsOf` gives a subject's findings worst first (`findingsBySubject`'s order); a server passes
 * the ones its windows index already holds (report-window.ts), built a step at a time.
 */
export function csvEncoder(
  report: Pick<ReportResult, 'columns' | 'findings' | 'findingKinds'>,
  findingsOf?: (subjectId: string) => readonly Finding[],
): { header: string; line: (row: ReportRow) => string } {
  const sectioned = report.columns.some((column) => column.section !== undefined);
  const header = [...(sectioned ? ['Section'] : []), ...report.columns.map((column) => column.label), 'Findings', 'Severity', 'Detail', 'Link'];
  const ofSubject = findingsOf ?? lookUp(findingsBySubject(report.findings, report.findingKinds));
  const line = (row: ReportRow): string => {
    const cells: string[] = [];
    if (sectioned) cells.push(csvField(row.section ?? ''));
    for (const column of report.columns) cells.push(csvField(cellFor(column, row)));
    const found = typeof row.id === 'string' ? ofSubject(row.id) : [];
    cells.push(csvField(found.map((finding) => findingKind(report.findingKinds, finding.kind).label).join('; ')));
    cells.push(csvField(found[0] ? findingKind(report.findingKinds, found[0].kind).severity : ''));
    cells.push(csvField(found.map((finding) => finding.detail).join(' ')));
    cells.push(csvField(row.link ?? ''));
    return cells.join(',');
  };
  return { header: header.map(csvField).join(','), line };
}

function lookUp(bySubject: ReadonlyMap<string, readonly Finding[]>): (subjectId: string) => readonly Finding[] {
  return (subjectId) => bySubject.get(subjectId) ?? [];
}

function cellFor(column: ReportColumn, row: Record<string, CellValue>): CellValue {
  if (!column.available) return 'n/a';
  if (column.section !== undefined && row.section !== column.section) return '';
  return row[column.key] ?? '';
}

/**
 * A value a spreadsheet would read as a formula. Excel and LibreOffice skip leading white space
 * (spaces, and a tab or line break that `singleLine` has already folded into a space) before they
 * look for `=`, so the guard looks past it too: a name written TAB`=1+1` exports as ` =1+1`, which
 * must be guarded like `=1+1` (OWASP, "CSV Injection"). The full-width signs (U+FF1D and its
 * neighbours) are guarded as well: a quote costs a reader nothing, a formula run costs more.
 */
const FORMULA_START = /^[\s\u00a0\u3000]*[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;

export function csvField(value: CellValue): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  // One line per record, whatever a name holds; then the formula guard on what is left.
  const line = singleLine(value);
  const safe = FORMULA_START.test(line) ? `'${line}` : line;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
