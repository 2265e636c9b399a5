import type { AuditStories, ReportColumn, ReportRow } from '../../core/reports/report-model.js';
import { CHANGED_COLUMN_KEY } from '../../core/reports/row-keys.js';

/** The cell the tab adds to a row whose findings' object the audit log shows a change of (one key, the server's windows' too). */
export { CHANGED_COLUMN_KEY };

/**
 * A report's table with a "Changed" column when its load read Intune's audit log: each row's
 * cell is its object's last successful change (the newest of `auditLog.changes` for the row's
 * id), so the table sorts by it as by any date. Rows whose object the log says nothing of are
 * empty, which sorts last. A report that read no log, or could not, is returned as it is.
 */
export function withChangedColumn(
  columns: readonly ReportColumn[],
  rows: readonly ReportRow[],
  auditLog: AuditStories | undefined,
): { columns: readonly ReportColumn[]; rows: readonly ReportRow[] } {
  if (auditLog?.state !== 'read') return { columns, rows };
  const sections = [...new Set(columns.map((column) => column.section))];
  const changed = sections.map((section): ReportColumn => ({
    key: CHANGED_COLUMN_KEY,
    label: 'Changed',
    available: true,
    format: 'date',
    ...(section === undefined ? {} : { section }),
  }));
  const lastAt = new Map<string, string>();
  for (const [id, changes] of Object.entries(auditLog.changes)) if (changes[0]) lastAt.set(id.toLowerCase(), changes[0].at);
  return {
    columns: [...columns, ...changed],
    rows: rows.map((row) => ({ ...row, [CHANGED_COLUMN_KEY]: typeof row.id === 'string' ? (lastAt.get(row.id.toLowerCase()) ?? null) : null })),
  };
}
