import type { ReportColumn, ReportPresentation, ReportRow } from '../../core/reports/report-model.js';

export interface ReportSection {
  /** The section key rows and columns carry, or null for a report with one table. */
  key: string | null;
  title: string;
  columns: ReportColumn[];
  rows: ReportRow[];
  /** The cell that names a row: used for link names and chart labels. */
  nameKey: string;
}

/** Cells that name what a row is about, most specific first. */
const NAME_KEYS = ['device', 'name', 'policy', 'app', 'modelName', 'area', 'requested'];

/**
 * A report's tables: reports 5 and 6 put several in one result, each column and row naming its
 * section (docs/contract.md, "Report ids and the JSON contract"); the others have one. Section order
 * is the order of the columns; titles are the report's own (`tables`).
 */
export function reportSections(presentation: Pick<ReportPresentation, 'tables'>, columns: readonly ReportColumn[], rows: readonly ReportRow[]): ReportSection[] {
  const keys = [...new Set(columns.map((column) => column.section ?? null))];
  return keys.map((key) => {
    const sectionColumns = columns.filter((column) => (column.section ?? null) === key);
    return {
      key,
      title: presentation.tables[key ?? ''] ?? key ?? 'Rows',
      columns: sectionColumns,
      rows: key === null ? [...rows] : rows.filter((row) => row.section === key),
      nameKey: NAME_KEYS.find((nameKey) => sectionColumns.some((column) => column.key === nameKey)) ?? sectionColumns[0]?.key ?? 'id',
    };
  });
}
