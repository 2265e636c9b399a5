import type { GraphClient } from '../graph/graph-client.js';
import type { ReportThresholds } from './thresholds.js';
import type { GraphApplicationPermission } from '../graph/graph-permissions.js';

/** The report ids (docs/contract.md, "Report ids and the JSON contract"); the CLI, the tab's API and the bot all take these. */
export const REPORT_IDS = [
  'connector-health',
  'assignment-hygiene',
  'security-posture',
  'escrow-gaps',
  'admin-approval',
  'startup-reliability',
] as const;
export type ReportId = (typeof REPORT_IDS)[number];

export function isReportId(value: string): value is ReportId {
  return (REPORT_IDS as readonly string[]).includes(value);
}

export type CellValue = string | number | boolean | null;

/**
 * One column of a report table. `available: false` is the specification's "n/a": the source behind
 * the column was not granted, so its cells are empty and no finding comes from it. A report with
 * several tables (report 5, report 6) names the table a column belongs to in `section`; rows of
 * those reports carry the same `section`.
 */
export interface ReportColumn {
  key: string;
  label: string;
  available: boolean;
  section?: string;
}

/** A table row: cells keyed by column key, plus `id` and `link` (the Intune admin center page, or null). */
export type ReportRow = Record<string, CellValue>;

/** A finding as `derive` states it; the registry adds the fingerprint. */
export interface FindingDraft {
  kind: string;
  subjectId: string;
  subjectName: string;
  detail: string;
  /**
   * What makes this finding this finding besides its kind and subject (the ASR rules in audit, the
   * firewall profiles that are off): part of the fingerprint, unlike names and timestamps.
   */
  ruleKey?: string;
}

export interface Finding {
  kind: string;
  subjectId: string;
  subjectName: string;
  detail: string;
  fingerprint: string;
}

/** What `derive` makes of the records: a table (possibly empty, with the spec's notice) and findings. */
export interface DerivedReport {
  state: 'loaded' | 'empty';
  /** Empty: the specification's empty-notice text. Loaded: a prerequisite hint or the report's caveat, else null. */
  notice: string | null;
  columns: ReportColumn[];
  rows: ReportRow[];
  findings: FindingDraft[];
}

export interface ReportLoadError {
  /** The upstream HTTP status; null when none arrived (network failure, time-out). */
  status: number | null;
  code: string | null;
  message: string;
}

/** The JSON contract (docs/contract.md, "Report ids and the JSON contract"), shared by the CLI, the tab's API and the bot. */
export interface ReportResult {
  report: ReportId;
  title: string;
  state: 'loaded' | 'empty' | 'load-error';
  error: ReportLoadError | null;
  notice: string | null;
  columns: ReportColumn[];
  rows: ReportRow[];
  findings: Finding[];
  generatedAt: string;
}

export interface LoadProgress {
  report: ReportId;
  /** The upstream collection, e.g. `managedDevices`. */
  source: string;
  /** Records read from that source so far. */
  records: number;
}

export interface LoadContext {
  graph: GraphClient;
  /** Records read from one upstream source so far; the registry adds the report's id. */
  onProgress?: (source: string, records: number) => void;
}

export interface DeriveContext {
  now: Date;
  thresholds: ReportThresholds;
}

/**
 * One report: `load` makes exactly the specification's upstream GETs for it and keeps only the
 * fields `derive` reads; `derive` is pure. A `GraphError` thrown by `load` becomes the report's
 * load error.
 */
export interface ReportDefinition<Records> {
  id: ReportId;
  title: string;
  /** One sentence: what the report finds. */
  summary: string;
  /** Application permissions the report needs (docs/contract.md, "Upstream reads"). */
  permissions: readonly GraphApplicationPermission[];
  /** Tenant prerequisites (docs/finding-rules.md, per report), shown as prerequisites, not errors. */
  prerequisites: readonly string[];
  /** Built on beta interfaces (report 5 says so to the user). */
  beta: boolean;
  load(context: LoadContext): Promise<Records>;
  derive(records: Records, context: DeriveContext): DerivedReport;
}
