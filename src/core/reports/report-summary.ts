import { countFindingsByKind } from '../findings/finding-kinds.js';
import type { FindingCount, FindingSeverity } from '../findings/finding-kinds.js';
import type { ReportId, ReportLoadError, ReportResult } from './report-model.js';
import { splitByTriage } from '../triage/triage-book.js';
import type { TriageDecision } from '../triage/triage-book.js';
import type { NotCheckedSource } from './not-checked.js';

/**
 * One report in a few numbers (docs/contract.md, "The server's endpoints", `GET /api/reports/:id/summary`): what the overview's tile and the
 * bot's overview card show, without the rows. Browser-safe, like the report model.
 */
export interface ReportSummary {
  report: ReportId;
  title: string;
  state: ReportResult['state'];
  error: ReportLoadError | null;
  notice: string | null;
  /** The report's one line of its own (`ReportResult.headline`), shown on the tile; absent for none. */
  headline?: string;
  /** Open findings (neither accepted nor snoozed) counted by kind, worst first. */
  counts: FindingCount[];
  /** Open findings. */
  findings: number;
  /** Findings accepted or snoozed now, shown apart; null when the triage decisions could not be read. */
  triaged: { accepted: number; snoozed: number } | null;
  /** The worst severity among the open findings; null without any. */
  worst: FindingSeverity | null;
  /** Columns shown as n/a (a permission not granted), by label. */
  unavailable: string[];
  /** Finding kinds that went unchecked for it, by label. */
  unchecked: string[];
  /** The checks that did not run, by source, with the permission to grant (not-checked.ts): never good news. */
  notChecked: NotCheckedSource[];
  rows: number;
  generatedAt: string;
  /** What changed between the last two successful loads, if there were two. */
  changes: ReportChanges | null;
  /** Findings per successful load, oldest first (the history, up to 90 days). */
  trend: TrendPoint[];
}

/**
 * Findings that appeared and went away between the last two successful loads (the history's latest
 * point). A failed load is not one of them (it proves nothing), and a finding of a kind the newer
 * load could not check (an n/a source) has not gone away.
 */
export interface ReportChanges {
  /** When the load before the latest was made. */
  since: string;
  fresh: number;
  resolved: number;
}

/** One point of the overview's trend line: when, and how many findings that load showed. */
export interface TrendPoint {
  at: string;
  findings: number;
}

/** What the summary knows beside the result: the history, and the triage decisions in force. */
export interface SummaryContext {
  changes: ReportChanges | null;
  /** The history's points, oldest first; empty when none is kept (or it could not be read). */
  trend: TrendPoint[];
  /** Decisions in force by fingerprint; null when they could not be read (every finding then counts as open). */
  inForce: ReadonlyMap<string, TriageDecision> | null;
  now: Date;
}

export function summarizeReport(result: ReportResult, context: SummaryContext): ReportSummary {
  const split = splitByTriage(result.findings, context.inForce ?? new Map(), context.now);
  const counts = countFindingsByKind(split.open, result.findingKinds);
  return {
    report: result.report,
    title: result.title,
    state: result.state,
    error: result.error,
    notice: result.notice,
    ...(result.headline ? { headline: result.headline } : {}),
    counts,
    findings: split.open.length,
    triaged: context.inForce ? { accepted: split.accepted.length, snoozed: split.snoozed.length } : null,
    worst: counts[0]?.severity ?? null,
    unavailable: result.columns.filter((column) => !column.available).map((column) => column.label),
    unchecked: result.unchecked.map((kind) => (Object.hasOwn(result.findingKinds, kind) ? result.findingKinds[kind]!.label : kind)),
    notChecked: result.notChecked,
    rows: result.rows.length,
    generatedAt: result.generatedAt,
    changes: context.changes,
    trend: context.trend,
  };
}
