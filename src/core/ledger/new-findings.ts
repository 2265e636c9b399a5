import { uncheckedSubjectKey } from '../reports/report-model.js';
import type { Finding, ReportId, ReportLoadError, ReportResult } from '../reports/report-model.js';
import type { ChannelLedger, LedgerEntry } from './channel-ledger.js';
import { findingsWorstFirst } from '../findings/finding-kinds.js';
import type { FindingKindTable } from '../findings/finding-kinds.js';
import type { NotCheckedSource } from '../reports/not-checked.js';

/** A finding the channel has not been told about: never posted, or posted as resolved since. */
export interface FreshFinding extends Finding {
  report: ReportId;
  reopened: boolean;
}

/** What one report adds to a post. */
export interface ReportNews {
  report: ReportId;
  title: string;
  state: ReportResult['state'];
  error: ReportLoadError | null;
  /** New and reopened findings, worst first. */
  fresh: FreshFinding[];
  /** Findings posted earlier that a successful load no longer shows. */
  resolved: number;
  /** Findings posted earlier and still present: not posted again. */
  continuing: number;
  /** Findings accepted or snoozed (docs/contract.md, "Triage"): never posted, and not resolved while present. */
  triaged: number;
  /** Finding kinds this load could not check (an n/a source): nothing of theirs is resolved. */
  unchecked: string[];
  /** Why they could not be checked: the source Graph refused and the permission to grant (not-checked.ts). */
  notChecked: NotCheckedSource[];
  /** The report's finding kinds, to name and rank them. */
  findingKinds: FindingKindTable;
}

export interface NewFindingsDigest {
  channel: string;
  reports: ReportNews[];
  freshCount: number;
  resolvedCount: number;
  /** When this channel was last posted to, if ever. */
  lastPostedAt: string | null;
  /** The ledger to record once the post has gone out, and only then. */
  nextLedger: ChannelLedger;
}

/**
 * A resolved finding is remembered this long, so that its return reads "reopened" rather than
 * "new"; after that the ledger forgets it and keeps its size bounded by what is current.
 */
export const RESOLVED_RETENTION_DAYS = 90;

/**
 * Compares what a channel was told (its ledger) with the reports as loaded now (docs/contract.md,
 * "The server's endpoints"): `new` and `reopened` findings are posted, `continuing` ones stay silent, and a finding
 * absent from a *successful* load is `resolved`. A report that failed to load resolves nothing, nor
 * does a source shown as n/a: "could not check" is never "clear". Entries of reports not loaded
 * this time are kept as they are. An accepted or snoozed finding (`triaged`, by fingerprint) is
 * neither posted nor resolved; once its snooze ends it is posted as any finding the channel has not
 * heard of. A channel posted one scope tag's findings is handed them only (`results` filtered), and
 * `elsewhere` holds the fingerprints the tenant's load shows outside that scope: they have not gone
 * away (their object left the scope, or the channel's scope changed), so they are not resolved.
 */
export function digestNewFindings(
  ledger: ChannelLedger,
  results: readonly ReportResult[],
  at: Date,
  triaged: ReadonlySet<string> = new Set(),
  elsewhere: ReadonlySet<string> = new Set(),
): NewFindingsDigest {
  const changedAt = at.toISOString();
  const byFingerprint = new Map(ledger.entries.map((entry) => [entry.fingerprint, entry]));
  const next = new Map(byFingerprint);
  const reports: ReportNews[] = [];

  for (const result of results) {
    const news: ReportNews = {
      report: result.report,
      title: result.title,
      state: result.state,
      error: result.error,
      fresh: [],
      resolved: 0,
      continuing: 0,
      triaged: 0,
      unchecked: result.unchecked,
      notChecked: result.notChecked,
      findingKinds: result.findingKinds,
    };
    reports.push(news);
    if (result.state === 'load-error') continue;

    const present = new Set<string>();
    for (const finding of result.findings) {
      present.add(finding.fingerprint);
      if (triaged.has(finding.fingerprint)) {
        news.triaged += 1;
        continue;
      }
      const known = byFingerprint.get(finding.fingerprint);
      if (known?.status === 'open') {
        news.continuing += 1;
        continue;
      }
      news.fresh.push({ ...finding, report: result.report, reopened: known !== undefined });
      next.set(finding.fingerprint, entryFor(result.report, finding, 'open', changedAt));
    }
    // A finding this load could not check (its kind's source n/a, or its subject not read in full) has not gone away.
    const unchecked = new Set(news.unchecked);
    const uncheckedSubjects = new Set(result.uncheckedSubjects.map(({ kind, subjectId }) => uncheckedSubjectKey(kind, subjectId)));
    for (const entry of byFingerprint.values()) {
      if (entry.report !== result.report || entry.status !== 'open' || present.has(entry.fingerprint) || elsewhere.has(entry.fingerprint)) continue;
      if (unchecked.has(entry.kind) || uncheckedSubjects.has(uncheckedSubjectKey(entry.kind, entry.subjectId))) continue;
      news.resolved += 1;
      next.set(entry.fingerprint, { ...entry, status: 'resolved', changedAt });
    }
    news.fresh = findingsWorstFirst(news.fresh, result.findingKinds);
  }

  const forgetBefore = at.getTime() - RESOLVED_RETENTION_DAYS * 86_400_000;
  const entries = [...next.values()]
    .filter((entry) => entry.status === 'open' || Date.parse(entry.changedAt) >= forgetBefore)
    .sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : a.fingerprint > b.fingerprint ? 1 : 0));
  return {
    channel: ledger.channel,
    reports,
    freshCount: reports.reduce((sum, news) => sum + news.fresh.length, 0),
    resolvedCount: reports.reduce((sum, news) => sum + news.resolved, 0),
    lastPostedAt: ledger.updatedAt,
    nextLedger: { channel: ledger.channel, entries, updatedAt: changedAt },
  };
}

function entryFor(report: ReportId, finding: Finding, status: LedgerEntry['status'], changedAt: string): LedgerEntry {
  return { fingerprint: finding.fingerprint, report, kind: finding.kind, subjectId: finding.subjectId, subjectName: finding.subjectName, status, changedAt };
}
