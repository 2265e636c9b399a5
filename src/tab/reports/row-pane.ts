import { cellTone } from '../../core/reports/report-model.js';
import type { Finding, ReportColumn, ReportResult, ReportRow } from '../../core/reports/report-model.js';
import { conflictSidesOf } from '../../core/reports/setting-conflicts/sides.js';
import { formatCell } from '../table/cell-format.js';
import type { FormatContext } from '../table/cell-format.js';
import { rowLink } from '../table/row-link.js';
import type { ConflictComparison } from './ConflictSides.js';
import type { FindingDetailsProps, FindingStory } from './FindingDetails.js';
import type { ReportSection } from './report-sections.js';

/** What a row's pane shows, whichever source its rows come from: its name and link, findings, recent changes, every cell, and "What applies" for a device. */
/** The reports whose rows are settings catalog policies a Triager may approve for report 8's baseline, and whether an approval can be withdrawn there. */
const APPROVABLE: Readonly<Record<string, { withdrawable: boolean }>> = { 'baseline-drift': { withdrawable: true }, 'security-posture': { withdrawable: false } };
const POLICY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function rowPane(
  report: Pick<ReportResult, 'auditLog'> & Partial<Pick<ReportResult, 'report'>>,
  section: Pick<ReportSection, 'nameKey' | 'columns' | 'subject'>,
  row: ReportRow,
  findings: Finding[],
  format: FormatContext,
): NonNullable<FindingDetailsProps['subject']> {
  const name = String(row[section.nameKey] ?? row.id);
  return {
    name,
    link: rowLink(row, name),
    findings,
    story: storyOf(report.auditLog, row.id),
    fields: section.columns.map((column) => ({ label: column.label, text: fullText(row, column, format) })),
    // A setting's conflict (report 7): its policies and their values side by side.
    ...comparisonOf(section, row, name, format),
    // A policy's row in report 8 or report 3: the pane offers to approve it as it is (a Triager's).
    ...(report.report && APPROVABLE[report.report] && typeof row.id === 'string' && POLICY_ID.test(row.id)
      ? { approvable: { policyId: row.id, withdrawable: APPROVABLE[report.report]!.withdrawable } }
      : {}),
    // A table of devices (the report's `rowSubjects`): the pane asks what applies to the row's device by its name.
    ...(section.subject === 'device' && typeof row[section.nameKey] === 'string' && row[section.nameKey] !== '' ? { appliesQuery: String(row[section.nameKey]) } : {}),
  };
}

/**
 * A setting-conflict row's policies side by side, from the row's structured cell of them
 * (setting-conflicts/sides.ts), with the row's verdict (the column with tones) and Overlap cell; none
 * for a row without that cell.
 */
function comparisonOf(section: Pick<ReportSection, 'columns'>, row: ReportRow, name: string, format: FormatContext): { comparison: ConflictComparison } | Record<string, never> {
  const sides = conflictSidesOf(row);
  if (!sides) return {};
  const verdict = section.columns.find((column) => column.available && (column.toneKey !== undefined || column.tones !== undefined));
  const overlap = section.columns.find((column) => column.available && column.key === 'overlap');
  return {
    comparison: {
      setting: name,
      settingId: String(row.id ?? name),
      verdict: verdict ? { text: fullText(row, verdict, format), tone: cellTone(row, verdict) } : null,
      overlap: overlap ? fullText(row, overlap, format) : null,
      sides,
    },
  };
}

/** A row's object's recent changes for its pane, or why they could not be read; undefined where the report read no log. */
export function storyOf(auditLog: ReportResult['auditLog'], id: ReportRow[string] | undefined): FindingStory | undefined {
  if (!auditLog) return undefined;
  if (auditLog.state === 'unreadable') return { unavailable: auditLog.reason };
  const key = typeof id === 'string' ? Object.keys(auditLog.changes).find((candidate) => candidate.toLowerCase() === id.toLowerCase()) : undefined;
  return { changes: key ? auditLog.changes[key]! : [] };
}

/** A cell in full, for the row's pane: its text and, where the table rounds or relates it, the exact value. */
export function fullText(row: ReportRow, column: ReportColumn, format: FormatContext): string {
  if (!column.available) return 'n/a (the permission for this source is not granted)';
  const cell = formatCell(row[column.key], column, format);
  return cell.detail && cell.detail !== cell.text ? `${cell.text} (${cell.detail})` : cell.text;
}
