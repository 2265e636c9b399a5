import { countFindingsByKind } from '../core/findings/finding-kinds.js';
import { singleLine } from '../core/reports/graph-values.js';
import type { CellValue, ReportColumn, ReportResult } from '../core/reports/report-model.js';
import type { ReportDefinition } from '../core/reports/report-model.js';

const MAX_CELL = 60;

/** A report as plain text tables for a terminal: notice or error first, then each table, then findings. */
export function reportToText(report: ReportResult, definition: Pick<ReportDefinition<unknown>, 'beta' | 'prerequisites' | 'tables'>, options: { color: boolean }): string {
  const red = (text: string) => (options.color ? `\u001b[31m${text}\u001b[39m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const lines: string[] = [bold(`${report.title}${definition.beta ? ' (beta)' : ''}`), `Generated ${report.generatedAt}`, ''];

  if (report.state === 'load-error' && report.error) {
    lines.push(red(`Load error${report.error.status === null ? '' : ` (HTTP ${report.error.status})`}: ${singleLine(report.error.message)}`));
    lines.push('', `Prerequisites: ${definition.prerequisites.join(' ')}`);
    return `${lines.join('\n')}\n`;
  }
  if (report.notice) lines.push(singleLine(report.notice), '');
  if (report.state === 'empty') return `${lines.join('\n')}\n`;

  const sections = [...new Set(report.columns.map((column) => column.section))];
  for (const section of sections) {
    const columns = report.columns.filter((column) => column.section === section);
    const rows = report.rows.filter((row) => section === undefined || row.section === section);
    if (section !== undefined) lines.push(bold(definition.tables[section] ?? section));
    lines.push(...table(columns, rows), '');
  }

  if (report.findings.length === 0) {
    lines.push('No findings.');
  } else {
    lines.push(bold(`${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}:`));
    for (const finding of report.findings) lines.push(`  ${finding.kind}  ${singleLine(finding.subjectName)}: ${singleLine(finding.detail)}`);
    lines.push('', bold('How to fix them, worst first:'));
    for (const { kind, count, label, severity, remediation } of countFindingsByKind(report.findings, report.findingKinds)) {
      lines.push(`  ${label} (${kind}: ${count}, ${severity})`);
      if (!remediation) continue;
      lines.push(`    Why it matters: ${singleLine(remediation.why)}`);
      remediation.steps.forEach((step, index) => lines.push(`    ${index + 1}. ${singleLine(step)}`));
      for (const source of remediation.sources) lines.push(`    Learn: ${singleLine(source.title)} <${singleLine(source.url)}>`);
    }
  }
  const unavailable = report.columns.filter((column) => !column.available);
  if (unavailable.length > 0) {
    lines.push('', `n/a: ${unavailable.map((column) => column.label).join(', ')} (the permission for that source is not granted; no findings come from it).`);
  }
  return `${lines.join('\n')}\n`;
}

function table(columns: ReportColumn[], rows: Array<Record<string, CellValue>>): string[] {
  const cells = rows.map((row) => columns.map((column) => (column.available ? display(row[column.key] ?? null) : 'n/a')));
  const widths = columns.map((column, index) => Math.max(column.label.length, ...cells.map((row) => row[index]!.length)));
  const format = (values: string[]) =>
    values
      .map((value, index) => value.padEnd(widths[index]!))
      .join('  ')
      .trimEnd();
  return [format(columns.map((column) => column.label)), format(widths.map((width) => '-'.repeat(width))), ...cells.map(format)];
}

function display(value: CellValue): string {
  if (value === null) return '—';
  const text = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) ? `${value.slice(0, 16).replace('T', ' ')} UTC` : String(value);
  const flat = singleLine(text).replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}
