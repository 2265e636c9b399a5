import type { ReportId, ReportResult } from '../reports/report-model.js';

/**
 * What each successful load of a report found (docs/contract.md, "History"): the trend the overview
 * and the report draw, and "N new, M resolved since …". A failed load adds no point and resolves
 * nothing. Browser-safe: the tab draws the points as the server keeps them.
 */
export interface HistoryPoint {
  /** When the load was made (the result's `generatedAt`). */
  at: string;
  findings: number;
  /** Findings by kind. */
  counts: Record<string, number>;
  /** Findings this load showed that the one before it did not; null for the first point. */
  fresh: number | null;
  /** Findings the load before showed that this one did not (of kinds this one could check); null for the first point. */
  resolved: number | null;
}

export interface ReportHistory {
  report: ReportId;
  /** Oldest first, 90 days at most, thinned as they age (`HISTORY_DAYS`, `thinned`). */
  points: HistoryPoint[];
}

/**
 * The last successful load's findings, by kind, as fingerprints: what the next load is compared
 * with. Kept apart from the points, which the overview reads often, as it can be large (75,000
 * findings are 2.7 MB).
 */
export interface LastFindings {
  report: ReportId;
  at: string;
  byKind: Record<string, string[]>;
}

const HISTORY_DAYS = 90;

export function emptyHistory(report: ReportId): ReportHistory {
  return { report, points: [] };
}

/**
 * Adds a successful load to the history: its counts, and what changed since the last successful
 * load (`last`), by fingerprint. A finding of a kind this load could not check (an n/a source) has
 * not gone away. Returns the new history and the fingerprints the next load compares with.
 */
export function recordLoad(
  history: ReportHistory,
  last: LastFindings | null,
  result: Pick<ReportResult, 'report' | 'state' | 'findings' | 'unchecked' | 'uncheckedSubjects' | 'generatedAt'>,
): { history: ReportHistory; last: LastFindings } | null {
  if (result.state === 'load-error') return null;
  const counts: Record<string, number> = {};
  const byKind: Record<string, string[]> = {};
  for (const finding of result.findings) {
    counts[finding.kind] = (counts[finding.kind] ?? 0) + 1;
    (byKind[finding.kind] ??= []).push(finding.fingerprint);
  }
  // A load older than the last one recorded (two instances finishing out of order) counts its
  // findings in its place, but changes nothing: the next point was measured across it already.
  const late = last !== null && result.generatedAt < last.at;
  let fresh: number | null = null;
  let resolved: number | null = null;
  if (last && !late) {
    const before = new Set(Object.values(last.byKind).flat());
    const now = new Set(result.findings.map((finding) => finding.fingerprint));
    // What this load could not check has not gone away: a kind whose source was n/a, a finding left
    // unchecked for its subject (by its fingerprint), or, where that fingerprint is not known (a
    // policy whose rules were not all read), the finding's whole kind. It is carried to the next
    // comparison rather than resolved, so it is neither resolved now nor new when it shows again.
    const uncheckedKinds = new Set([...result.unchecked, ...result.uncheckedSubjects.filter(({ fingerprint }) => fingerprint === null).map(({ kind }) => kind)]);
    const uncheckedFingerprints = new Set(result.uncheckedSubjects.flatMap(({ fingerprint }) => (fingerprint === null ? [] : [fingerprint])));
    fresh = [...now].filter((fingerprint) => !before.has(fingerprint)).length;
    resolved = 0;
    for (const [kind, fingerprints] of Object.entries(last.byKind)) {
      for (const fingerprint of fingerprints) {
        if (now.has(fingerprint)) continue;
        if (uncheckedKinds.has(kind) || uncheckedFingerprints.has(fingerprint)) (byKind[kind] ??= []).push(fingerprint);
        else resolved += 1;
      }
    }
  }
  const point: HistoryPoint = { at: result.generatedAt, findings: result.findings.length, counts, fresh, resolved };
  const newest = history.points.at(-1);
  const points = !newest || newest.at <= point.at ? [...history.points, point] : [...history.points, point].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
  // Points age from the newest load, and the next load compares with the newest fingerprints.
  const latest = late ? last : { report: result.report, at: result.generatedAt, byKind };
  return {
    history: { report: history.report, points: thinned(points, new Date(latest.at)) },
    last: latest,
  };
}

/**
 * Keeps the history bounded however often the report loads: every point of the last day, then the
 * last point of each hour for two weeks, then the last of each day for 90 days; a dropped point's
 * new and resolved findings add to the point kept after it, so nothing seen is lost from the sums.
 * At most about 24 × 14 + 76 points beside the last day's.
 */
export function thinned(points: readonly HistoryPoint[], now: Date): HistoryPoint[] {
  const cutoff = now.getTime() - HISTORY_DAYS * 86_400_000;
  const times = points.map((point) => Date.parse(point.at));
  const bucketOf = (index: number): string => {
    const point = points[index]!;
    const age = now.getTime() - times[index]!;
    if (age <= 86_400_000) return point.at;
    return age <= 14 * 86_400_000 ? point.at.slice(0, 13) : point.at.slice(0, 10);
  };
  const kept: HistoryPoint[] = [];
  let carried: { fresh: number; resolved: number } | null = null;
  points.forEach((point, index) => {
    if (times[index]! < cutoff) return;
    const withCarry = carried && point.fresh !== null ? { ...point, fresh: point.fresh + carried.fresh, resolved: (point.resolved ?? 0) + carried.resolved } : point;
    if (index + 1 < points.length && bucketOf(index + 1) === bucketOf(index)) {
      carried = { fresh: withCarry.fresh ?? 0, resolved: withCarry.resolved ?? 0 };
      return;
    }
    carried = null;
    kept.push(withCarry);
  });
  return kept;
}

/** The latest change, as "N new, M resolved since <the load before>": null before a second load. */
export function latestChange(history: ReportHistory): { since: string; fresh: number; resolved: number } | null {
  const { points } = history;
  const latest = points.at(-1);
  const before = points.at(-2);
  if (!latest || !before || latest.fresh === null || latest.resolved === null) return null;
  return { since: before.at, fresh: latest.fresh, resolved: latest.resolved };
}

export function isReportHistory(value: unknown, report: ReportId): value is ReportHistory {
  const history = value as Partial<ReportHistory> | null;
  return (
    typeof history === 'object' &&
    history !== null &&
    history.report === report &&
    Array.isArray(history.points) &&
    history.points.every((point) => typeof point?.at === 'string' && typeof point.findings === 'number')
  );
}

export function isLastFindings(value: unknown, report: ReportId): value is LastFindings {
  const last = value as Partial<LastFindings> | null;
  return (
    typeof last === 'object' &&
    last !== null &&
    last.report === report &&
    typeof last.at === 'string' &&
    typeof last.byKind === 'object' &&
    last.byKind !== null &&
    Object.values(last.byKind).every((fingerprints) => Array.isArray(fingerprints))
  );
}
