import type { ReportColumn, ReportPresentation, ReportRow, RowSubject } from '../../core/reports/report-model.js';

export interface ReportSection {
  /** The section key rows and columns carry, or null for a report with one table. */
  key: string | null;
  title: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The cell that names a row: used for link names and chart labels. */
  nameKey: string;
  /** What the rows are about, where a question can be asked of one (`rowSubjects`): a device's pane asks what applies to it. */
  subject: RowSubject | null;
}

/**
 * A report's tables: reports 5 and 6 put several in one result, each column and row naming its
 * section (docs/contract.md, "Report ids and the JSON contract"); the others have one. Section order
 * is the order of the columns; titles and what the rows are about are the report's own (`tables`,
 * `rowSubjects`); a row is named by the column whose role is `name`, else by the first.
 */
export function reportSections(presentation: Pick<ReportPresentation, 'tables' | 'rowSubjects'>, columns: readonly ReportColumn[], rows: readonly ReportRow[]): ReportSection[] {
  const keys = [...new Set(columns.map((column) => column.section ?? null))];
  return keys.map((key) => {
    const sectionColumns = columns.filter((column) => (column.section ?? null) === key);
    return {
      key,
      title: presentation.tables[key ?? ''] ?? key ?? 'Rows',
      columns: sectionColumns,
      rows: key === null ? [...rows] : rows.filter((row) => row.section === key),
      nameKey: (sectionColumns.find((column) => column.role === 'name') ?? sectionColumns[0])?.key ?? 'id',
      subject: presentation.rowSubjects?.[key ?? ''] ?? null,
    };
  });
}
