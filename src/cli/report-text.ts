import { SEVERITY_LABEL, countFindingsByKind, findingKind, findingsWorstFirst } from '../core/findings/finding-kinds.js';
import type { FindingCount } from '../core/findings/finding-kinds.js';
import { singleLine } from '../core/reports/graph-values.js';
import type { CellValue, ReportColumn, ReportResult } from '../core/reports/report-model.js';
import type { ReportDefinition } from '../core/reports/report-model.js';
import type { ReportSummary } from '../core/reports/report-summary.js';
import { notCheckedChecksText, notCheckedHeadline, notCheckedReasonText } from '../core/reports/not-checked.js';
import type { NotCheckedSource } from '../core/reports/not-checked.js';
import { layoutTable, wrap } from './text-layout.js';
import { describeLastChange } from '../core/audit-story/audit-story.js';
import type { TextColumn } from './text-layout.js';
import { countOf, kindLabel } from '../core/text/words.js';
import { BETA_COVERAGE_ASK, BETA_COVERAGE_SETTING } from '../core/reports/beta-coverage.js';

const MAX_CELL = 60;

export interface TextOptions {
  color: boolean;
  /** Characters a line may hold; null: no limit (the output is not a terminal). */
  width: number | null;
  /** Leave the table out (`--findings-only`): the counts, every finding and how to fix them. */
  findingsOnly?: boolean;
}

/**
 * A report as text for a terminal (docs/contract.md, "The command line"): the notice or error, then
 * what was found, counted by kind worst first, then the table fitted to the width, then every
 * finding worst first, and how to fix each kind.
 */
export function reportToText(report: ReportResult, definition: Pick<ReportDefinition<unknown>, 'beta' | 'prerequisites' | 'tables'>, options: TextOptions): string {
  const { width } = options;
  const red = (text: string) => (options.color ? `\u001b[31m${text}\u001b[39m` : text);
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const lines: string[] = [...wrap(`${report.title}${definition.beta ? ' (beta)' : ''}`, width).map(bold), `Generated ${displayDate(report.generatedAt)}`, ''];

  if (report.state === 'load-error' && report.error) {
    lines.push(...wrap(`Load error${report.error.status === null ? '' : ` (HTTP ${report.error.status})`}: ${singleLine(report.error.message)}`, width).map(red));
    lines.push('', ...wrap(`Prerequisites: ${definition.prerequisites.join(' ')}`, width));
    return `${lines.join('\n')}\n`;
  }
  if (report.notice) lines.push(...wrap(singleLine(report.notice), width), '');
  if (report.headline) lines.push(...wrap(singleLine(report.headline), width), '');
  // The notice asks the reader to have beta coverage turned on; at the command line the reader is the operator, told how.
  if (report.notice?.includes(BETA_COVERAGE_ASK)) lines.push(...wrap(BETA_COVERAGE_SETTING, width), '');
  if (report.state === 'empty') return `${lines.join('\n')}\n`;
  // Checks that did not run come before what was found, so the count below is not read as all there is.
  if (report.notChecked.length > 0) lines.push(...notCheckedLines(report.notChecked, width, '', red), '');

  const counts = countFindingsByKind(report.findings, report.findingKinds);
  if (counts.length === 0) lines.push('No findings.', '');
  else {
    lines.push(bold(`${countOf(report.findings.length, 'finding')}, worst first:`));
    lines.push(...kindCountLines(counts, width, '  '), '');
  }

  const sections = options.findingsOnly ? [] : [...new Set(report.columns.map((column) => column.section))];
  for (const section of sections) {
    const columns = report.columns.filter((column) => column.section === section);
    const rows = report.rows.filter((row) => section === undefined || row.section === section);
    if (section !== undefined) lines.push(...wrap(definition.tables[section] ?? section, width).map(bold));
    const table = layoutTable(
      columns.map((column, index) => textColumn(column, index, columns)),
      rows.map((row) => columns.map((column) => (column.available ? display(row[column.key] ?? null, column) : 'n/a'))),
      width,
    );
    // One by one: a large tenant's table has more lines than a spread's arguments may hold.
    for (const line of table.lines) lines.push(line);
    if (table.left.length > 0) lines.push(...wrap(`Left out to fit ${width} columns: ${table.left.join(', ')}. --format csv has every column.`, width));
    lines.push('');
  }

  if (counts.length > 0) {
    lines.push(bold('Findings, worst first:'));
    let kind: string | null = null;
    for (const finding of findingsWorstFirst(report.findings, report.findingKinds)) {
      if (finding.kind !== kind) {
        kind = finding.kind;
        const { label, severity } = findingKind(report.findingKinds, kind);
        lines.push(...wrap(`${SEVERITY_LABEL[severity]}: ${label} (${kind})`, width, '    ', '  '));
      }
      lines.push(...wrap(`${singleLine(finding.subjectName)}: ${singleLine(finding.detail)}`, width, '      ', '    '));
      // Since when, and who (docs/finding-rules.md, "A finding's last change").
      if (finding.lastChange) lines.push(...wrap(`${singleLine(describeLastChange(finding.lastChange))}.`, width, '        ', '      '));
    }
    lines.push('', bold('How to fix them, worst first:'));
    for (const { kind: name, count, label, severity, remediation } of counts) {
      lines.push(...wrap(`${label} (${name}: ${count.toLocaleString('en-US')}, ${SEVERITY_LABEL[severity]})`, width, '    ', '  '));
      if (!remediation) continue;
      lines.push(...wrap(`Why it matters: ${singleLine(remediation.why)}`, width, '      ', '    '));
      remediation.steps.forEach((step, index) => lines.push(...wrap(`${index + 1}. ${singleLine(step)}`, width, '       ', '    ')));
      // The address on a line of its own, bare and whole: clickable in a terminal and copied as it is.
      for (const source of remediation.sources) lines.push(...wrap(`Learn: ${singleLine(source.title)}`, width, '      ', '    '), `      ${singleLine(source.url)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Which columns a narrow terminal keeps, and how each gives way: the column that names the row
 * (docs/contract.md, "Columns": its `role: 'name'`, else the first) always, then verdicts (a status
 * or a toned cell, what the report is about), then the first column, then dates and figures, then
 * other text.
 */
function textColumn(column: ReportColumn, index: number, columns: readonly ReportColumn[]): TextColumn {
  const nameIndex = Math.max(
    0,
    columns.findIndex((candidate) => candidate.role === 'name'),
  );
  const verdict = column.format === 'status' || column.toneKey !== undefined || column.tones !== undefined;
  if (index === nameIndex) return { label: column.label, priority: 100, kind: 'name' };
  const base = verdict ? 80 : index === 0 ? 70 : column.format === 'text' ? 20 : 40;
  // Among equals, the report's own order: earlier columns matter more.
  return { label: column.label, priority: base - index / 100, ...(verdict ? { kind: 'verdict' as const } : {}) };
}

/** The seven reports as the overview shows them: one block each, its state and what it found. */
export function overviewToText(summaries: readonly ReportSummary[], options: TextOptions & { tenantLabel: string }): string {
  const { width } = options;
  const bold = (text: string) => (options.color ? `\u001b[1m${text}\u001b[22m` : text);
  const lines: string[] = [...wrap(`Overview of ${singleLine(options.tenantLabel)}`, width).map(bold), ''];
  for (const summary of summaries) {
    lines.push(...wrap(summary.title, width).map(bold));
    if (summary.notChecked.length > 0) lines.push(...notCheckedLines(summary.notChecked, width, '  ', bold));
    if (summary.state === 'load-error') {
      const status = summary.error?.status;
      lines.push(...wrap(`Could not load${status ? `: Microsoft Graph answered HTTP ${status}` : ''}. ${singleLine(summary.error?.message ?? '')}`, width, '    ', '  '));
    } else if (summary.state === 'empty') {
      lines.push(...wrap(singleLine(summary.notice ?? 'Nothing to show.'), width, '    ', '  '));
    } else if (summary.counts.length === 0) {
      lines.push(...wrap(`No findings in ${countOf(summary.rows, 'row')}.`, width, '    ', '  '));
    } else {
      lines.push(...wrap(`${countOf(summary.findings, 'finding')} in ${countOf(summary.rows, 'row')}, worst ${SEVERITY_LABEL[summary.worst!]}:`, width, '    ', '  '));
      lines.push(...kindCountLines(summary.counts, width, '    '));
    }
    if (summary.headline) lines.push(...wrap(singleLine(summary.headline), width, '    ', '  '));
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * What did not run (not-checked.ts): the headline, then per source which checks, why, and the
 * permission to grant. A permission name is one word, so wrapping never breaks it.
 */
function notCheckedLines(sources: readonly NotCheckedSource[], width: number | null, indent: string, loud: (text: string) => string): string[] {
  const lines = wrap(`${notCheckedHeadline(sources)}. The findings below are not all there is.`, width, `${indent}  `, indent).map(loud);
  for (const source of sources) {
    lines.push(...wrap(`- ${notCheckedChecksText(source)}`, width, `${indent}    `, `${indent}  `));
    lines.push(...wrap(notCheckedReasonText(source), width, `${indent}    `, `${indent}    `));
  }
  return lines;
}

/** Findings counted by kind, one line each: severity, count (aligned) and the kind's label, wrapped under itself. */
function kindCountLines(counts: readonly FindingCount[], width: number | null, indent: string): string[] {
  const countWidth = Math.max(...counts.map(({ count }) => count.toLocaleString('en-US').length));
  return counts.flatMap((kind) => {
    const head = `${indent}${SEVERITY_LABEL[kind.severity].padEnd(6)}  ${kind.count.toLocaleString('en-US').padStart(countWidth)}  `;
    return wrap(kindLabel(kind, kind.count), width, ' '.repeat(head.length), head);
  });
}

function displayDate(value: string): string {
  return /^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value) ? `${value.slice(0, 16).replace('T', ' ')} UTC` : value;
}

/** A cell as the table shows it; a date column shows the day (the time is in --format csv and json), which a narrow terminal keeps whole. */
function display(value: CellValue, column: Pick<ReportColumn, 'format'>): string {
  if (value === null) return '—';
  const day = column.format === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value);
  const text = day ? value.slice(0, 10) : typeof value === 'string' ? displayDate(value) : typeof value === 'number' ? value.toLocaleString('en-US') : String(value);
  const flat = singleLine(text).replace(/\s+/g, ' ');
  return flat.length > MAX_CELL ? `${flat.slice(0, MAX_CELL - 1)}…` : flat;
}
