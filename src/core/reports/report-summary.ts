import { countFindingsByKind } from '../findings/finding-kinds.js';
import type { FindingCount, FindingSeverity } from '../findings/finding-kinds.js';
import type { ReportId, ReportLoadError, ReportResult } from './report-model.js';

/**
 * One report in a few numbers (docs/contract.md, "The overview"): what the overview's tile and the
 * bot's overview card show, without the rows. Browser-safe, like the report model.
 */
export interface ReportSummary {
  report: ReportId;
  title: string;
  state: ReportResult['state'];
  error: ReportLoadError | null;
  notice: string | null;
  /** Findings counted by kind, worst first. */
  counts: FindingCount[];
  findings: number;
  /** The worst severity among the findings; null without findings. */
  worst: FindingSeverity | null;
  /** Columns shown as n/a (a permission not granted), by label. */
  unavailable: string[];
  /** Finding kinds that went unchecked for it, by label. */
  unchecked: string[];
  rows: number;
  generatedAt: string;
}

export function summarizeReport(result: ReportResult): ReportSummary {
  const counts = countFindingsByKind(result.findings, result.findingKinds);
  return {
    report: result.report,
    title: result.title,
    state: result.state,
    error: result.error,
    notice: result.notice,
    counts,
    findings: result.findings.length,
    worst: counts[0]?.severity ?? null,
    unavailable: result.columns.filter((column) => !column.available).map((column) => column.label),
    unchecked: result.unchecked.map((kind) => (Object.hasOwn(result.findingKinds, kind) ? result.findingKinds[kind]!.label : kind)),
    rows: result.rows.length,
    generatedAt: result.generatedAt,
  };
}
