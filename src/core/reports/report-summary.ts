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
  /** What changed since the previous successful load this server made, if it made one. */
  changes: ReportChanges | null;
}

/**
 * Findings that appeared and went away between two successful loads. A failed load is not one of
 * them (it proves nothing), and a finding of a kind the newer load could not check (an n/a source)
 * has not gone away.
 */
export interface ReportChanges {
  /** When the previous successful load was made. */
  since: string;
  fresh: number;
  resolved: number;
}

/** The changes from one successful load to the next, by fingerprint. */
export function changesBetween(previous: Pick<ReportResult, 'findings' | 'generatedAt'>, current: Pick<ReportResult, 'findings' | 'unchecked'>): ReportChanges {
  const before = new Map(previous.findings.map((finding) => [finding.fingerprint, finding.kind]));
  const now = new Set(current.findings.map((finding) => finding.fingerprint));
  const unchecked = new Set(current.unchecked);
  let resolved = 0;
  for (const [fingerprint, kind] of before) if (!now.has(fingerprint) && !unchecked.has(kind)) resolved += 1;
  let fresh = 0;
  for (const fingerprint of now) if (!before.has(fingerprint)) fresh += 1;
  return { since: previous.generatedAt, fresh, resolved };
}

export function summarizeReport(result: ReportResult, changes: ReportChanges | null = null): ReportSummary {
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
    changes,
  };
}
