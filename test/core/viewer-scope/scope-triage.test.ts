import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/core/reports/report-model.js';
import type { TriageAuditEntry, TriageBook, TriageDecision } from '../../../src/core/triage/triage-book.js';
import { subjectsInView, triageBookInView } from '../../../src/core/viewer-scope/scope-triage.js';

const by = { objectId: 'u-1', name: 'Megan', username: 'megan@contoso.example' };

function decision(fingerprint: string, subjectId: string, report: TriageDecision['report'] = 'security-posture'): TriageDecision {
  return { fingerprint, report, kind: 'baseline-outdated', subjectId, subjectName: subjectId, state: 'accepted', reason: 'known', until: null, by, at: '2026-11-23T09:00:00Z' };
}

function entry(seq: number, fingerprint: string, report: TriageAuditEntry['report'] = 'security-posture'): TriageAuditEntry {
  return { seq, at: '2026-11-23T09:00:00Z', by, action: 'accept', fingerprint, report, kind: 'baseline-outdated', subjectName: fingerprint, reason: 'known', until: null };
}

const finding = (fingerprint: string, subjectId: string): Finding => ({ kind: 'baseline-outdated', subjectId, subjectName: subjectId, detail: 'old', fingerprint });

/** The latest load as a viewer of the Europe tag sees it: one policy, with one finding. */
const europeView = { rows: [{ id: 'P-Europe', policy: 'Europe baseline' }], findings: [finding('f-europe', 'P-Europe')] };

describe("a report's triage as a viewer limited to scope tags may read it", () => {
  it('the subjects in view are the rows the viewer sees, by id without case', () => {
    expect([...subjectsInView(europeView)]).toEqual(['p-europe']);
  });

  it('keeps the decisions of subjects in view and the entries of their findings; leaves out what the latest load cannot place, and other reports', () => {
    const book: TriageBook = {
      decisions: [
        decision('f-europe', 'p-europe'),
        decision('f-americas', 'p-americas'),
        // Same subject id in another report: this view is of one report.
        decision('f-other-report', 'p-europe', 'escrow-gaps'),
        // A finding the latest load no longer shows, of a subject the viewer still sees: its decision places it.
        decision('f-europe-gone', 'P-EUROPE'),
      ],
      audit: [entry(1, 'f-europe'), entry(2, 'f-americas'), entry(3, 'f-other-report', 'escrow-gaps'), entry(4, 'f-europe-gone'), entry(5, 'f-gone-no-decision')],
      updatedAt: '2026-11-23T09:00:00Z',
    };
    const seen = triageBookInView(book, 'security-posture', europeView);
    expect(seen.decisions.map((kept) => kept.fingerprint)).toEqual(['f-europe', 'f-europe-gone']);
    // Entry 5's finding is gone and its decision no longer kept: nothing proves it is in the scope.
    expect(seen.audit.map((kept) => kept.seq)).toEqual([1, 4]);
    expect(seen.updatedAt).toBe(book.updatedAt);
  });

  it('a load that shows the viewer nothing (a load error, say) leaves them no decision and no entry', () => {
    const book: TriageBook = { decisions: [decision('f-europe', 'p-europe')], audit: [entry(1, 'f-europe')], updatedAt: null };
    expect(triageBookInView(book, 'security-posture', { rows: [], findings: [] })).toEqual({ decisions: [], audit: [], updatedAt: null });
  });
});
