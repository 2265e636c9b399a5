import type { ReportId, ReportResult } from '../reports/report-model.js';
import type { TriageBook } from '../triage/triage-book.js';

/**
 * A report's triage as a viewer limited to scope tags may see it (docs/finding-rules.md, "Viewer
 * scope"). Decisions and audit entries carry no scope tags of their own, so each is placed through
 * the report's latest load as the viewer sees it (`scopeReport`): the rows they see are the objects
 * in their scope, by the tags those objects carry now. Whatever cannot be placed that way (a
 * finding, or a decision's subject, the latest load no longer shows) is left out: never shown
 * beyond a scope for want of proof that it is inside it.
 */

/** The objects a scoped result shows, by row `id` in lower case: findings' and decisions' `subjectId`s are these. */
export function subjectsInView(scoped: Pick<ReportResult, 'rows'>): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const row of scoped.rows) if (typeof row.id === 'string') ids.add(row.id.toLowerCase());
  return ids;
}

/**
 * The book as a viewer of the scoped result may read it for `report`: the report's decisions whose
 * subject they see, and the report's audit entries of a finding they see (one the scoped result
 * shows, or one whose decision, still kept, is of a subject they see). Every other report's entries
 * and decisions are left out too: the answer is one report's triage. The audit's numbers (`seq`) are
 * kept, so its pages read on as they do for everyone.
 */
export function triageBookInView(book: TriageBook, report: ReportId, scoped: Pick<ReportResult, 'rows' | 'findings'>): TriageBook {
  const subjects = subjectsInView(scoped);
  const decisions = book.decisions.filter((decision) => decision.report === report && subjects.has(decision.subjectId.toLowerCase()));
  const fingerprints = new Set([...scoped.findings.map((finding) => finding.fingerprint), ...decisions.map((decision) => decision.fingerprint)]);
  return {
    decisions,
    audit: book.audit.filter((entry) => entry.report === report && fingerprints.has(entry.fingerprint)),
    updatedAt: book.updatedAt,
  };
}
