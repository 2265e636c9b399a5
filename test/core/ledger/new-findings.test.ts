import { describe, expect, it } from 'vitest';
import { RESOLVED_RETENTION_DAYS, digestNewFindings } from '../../../src/core/ledger/new-findings.js';
import type { Finding, ReportResult } from '../../../src/core/reports/report-model.js';
import { emptyLedger } from '../../../src/store/state-store.js';
import { escrowGapsReport } from '../../../src/core/reports/escrow-gaps/definition.js';

const DAY = 86_400_000;
const t0 = new Date('2026-11-01T09:00:00Z');

function finding(subject: string, kind = 'missing-recovery-key'): Finding {
  return { kind, subjectId: subject, subjectName: subject.toUpperCase(), detail: 'd', fingerprint: `${kind}:${subject}` };
}

function escrow(findings: Finding[], options: { laps?: boolean; keys?: boolean } = {}): ReportResult {
  return {
    report: 'escrow-gaps',
    title: 'Escrow',
    state: 'loaded',
    error: null,
    notice: null,
    columns: [
      { key: 'recoveryKey', label: 'Recovery key', available: options.keys ?? true, format: 'date' },
      { key: 'lapsPassword', label: 'LAPS password', available: options.laps ?? true, format: 'date' },
    ],
    rows: [],
    findings,
    findingKinds: escrowGapsReport.findingKinds,
    // As the registry works it out from the report's optional sources.
    unchecked: escrowGapsReport.optionalSources
      .filter(({ column }) => (column === 'recoveryKey' ? options.keys === false : options.laps === false))
      .flatMap(({ findingKinds }) => [...findingKinds]),
    uncheckedSubjects: [],
    notChecked: [],
    generatedAt: t0.toISOString(),
  };
}

const failed: ReportResult = { ...escrow([]), state: 'load-error', error: { status: 403, code: 'Forbidden', message: 'no' } };

describe('digestNewFindings', () => {
  it('calls everything new on a channel never posted to, worst first', () => {
    const digest = digestNewFindings(emptyLedger('c'), [escrow([finding('a', 'missing-laps-password'), finding('b')])], t0);
    expect(digest.freshCount).toBe(2);
    expect(digest.reports[0]!.fresh.map((item) => item.subjectId)).toEqual(['b', 'a']);
    expect(digest.lastPostedAt).toBeNull();
    expect(digest.nextLedger.entries.every((entry) => entry.status === 'open')).toBe(true);
  });

  it('keeps continuing findings silent and counts resolved ones', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a'), finding('b')])], t0);
    const second = digestNewFindings(first.nextLedger, [escrow([finding('b'), finding('c')])], new Date(t0.getTime() + DAY));
    expect(second.reports[0]).toMatchObject({ continuing: 1, resolved: 1 });
    expect(second.reports[0]!.fresh.map((item) => item.subjectId)).toEqual(['c']);
    expect(second.lastPostedAt).toBe(t0.toISOString());
    expect(second.nextLedger.entries.find((entry) => entry.subjectId === 'a')?.status).toBe('resolved');
  });

  it('does not resolve a finding the tenant still shows outside the channel’s scope (`elsewhere`), and keeps its entry open', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a'), finding('b')])], t0);
    // The channel's scope now leaves out "a", which the tenant's load still shows; "b" has gone.
    const second = digestNewFindings(first.nextLedger, [escrow([])], new Date(t0.getTime() + DAY), new Set(), new Set([finding('a').fingerprint]));
    expect(second.reports[0]).toMatchObject({ resolved: 1, continuing: 0, fresh: [] });
    expect(second.nextLedger.entries.map((entry) => [entry.subjectId, entry.status])).toEqual([
      ['a', 'open'],
      ['b', 'resolved'],
    ]);
  });

  it('neither posts nor resolves an accepted or snoozed finding, and posts it once its decision ends', () => {
    const a = finding('a');
    const b = finding('b');
    const first = digestNewFindings(emptyLedger('c'), [escrow([a])], t0);
    // a was posted, then accepted; b appears already snoozed.
    const triaged = new Set([a.fingerprint, b.fingerprint]);
    const second = digestNewFindings(first.nextLedger, [escrow([a, b])], new Date(t0.getTime() + DAY), triaged);
    expect(second.reports[0]).toMatchObject({ fresh: [], resolved: 0, continuing: 0, triaged: 2 });
    // The snooze of b ends: b is news now; a stays open in the ledger, so it is not news again.
    const third = digestNewFindings(second.nextLedger, [escrow([a, b])], new Date(t0.getTime() + 2 * DAY), new Set([a.fingerprint]));
    expect(third.reports[0]!.fresh.map((item) => item.subjectId)).toEqual(['b']);
    expect(third.reports[0]!.resolved).toBe(0);
  });

  it('posts a finding that comes back after it resolved as reopened', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a')])], t0);
    const resolved = digestNewFindings(first.nextLedger, [escrow([])], new Date(t0.getTime() + DAY));
    const back = digestNewFindings(resolved.nextLedger, [escrow([finding('a')])], new Date(t0.getTime() + 2 * DAY));
    expect(back.reports[0]!.fresh).toEqual([expect.objectContaining({ subjectId: 'a', reopened: true })]);
  });

  it('resolves nothing from a report that failed to load', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a')])], t0);
    const digest = digestNewFindings(first.nextLedger, [failed], new Date(t0.getTime() + DAY));
    expect(digest.resolvedCount).toBe(0);
    expect(digest.nextLedger.entries).toEqual(first.nextLedger.entries);
  });

  it('resolves nothing of a kind whose source is n/a, but still resolves the other kind', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a', 'missing-laps-password'), finding('b')])], t0);
    const digest = digestNewFindings(first.nextLedger, [escrow([], { laps: false })], new Date(t0.getTime() + DAY));
    expect(digest.reports[0]).toMatchObject({ resolved: 1, unchecked: ['missing-laps-password'] });
    expect(digest.nextLedger.entries.find((entry) => entry.subjectId === 'a')?.status).toBe('open');
  });

  it('keeps open a finding whose subject this load could not check, and resolves the same kind for other subjects', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a'), finding('b')])], t0);
    const digest = digestNewFindings(
      first.nextLedger,
      [{ ...escrow([]), uncheckedSubjects: [{ kind: 'missing-recovery-key', subjectId: 'A', fingerprint: null }] }],
      new Date(t0.getTime() + DAY),
    );
    expect(digest.reports[0]).toMatchObject({ resolved: 1, unchecked: [] });
    expect(digest.nextLedger.entries.map(({ subjectId, status }) => [subjectId, status])).toEqual([
      ['a', 'open'],
      ['b', 'resolved'],
    ]);
  });

  it('leaves the entries of reports not loaded this time alone', () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a')])], t0);
    const connectors: ReportResult = { ...escrow([]), report: 'connector-health', columns: [] };
    const digest = digestNewFindings(first.nextLedger, [connectors], new Date(t0.getTime() + DAY));
    expect(digest.nextLedger.entries).toEqual(first.nextLedger.entries);
  });

  it(`forgets a resolved finding after ${RESOLVED_RETENTION_DAYS} days, so the ledger stays bounded`, () => {
    const first = digestNewFindings(emptyLedger('c'), [escrow([finding('a')])], t0);
    const resolved = digestNewFindings(first.nextLedger, [escrow([])], new Date(t0.getTime() + DAY));
    const later = digestNewFindings(resolved.nextLedger, [escrow([])], new Date(t0.getTime() + (RESOLVED_RETENTION_DAYS + 2) * DAY));
    expect(later.nextLedger.entries).toEqual([]);
  });
});
