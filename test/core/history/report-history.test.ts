import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HistoryRecords } from '../../../src/app/history-records.js';
import { emptyHistory, latestChange, recordLoad, thinned } from '../../../src/core/history/report-history.js';
import type { HistoryPoint, LastFindings, ReportHistory } from '../../../src/core/history/report-history.js';
import type { ReportResult } from '../../../src/core/reports/report-model.js';
import { FileStateStore } from '../../../src/store/file-state-store.js';
import { reportResult } from '../../fixtures/report-result.js';
import { holdLock } from '../../support/gate.js';

function point(at: string, fresh: number | null = 0, resolved: number | null = 0): HistoryPoint {
  return { at, findings: 1, counts: { a: 1 }, fresh, resolved };
}

describe('a report history', () => {
  it('counts what changed between successful loads; a failed load adds no point, and an unchecked kind resolves nothing', () => {
    let history: ReportHistory = emptyHistory('escrow-gaps');
    let last: LastFindings | null = null;
    const load = (value: ReportResult) => {
      const recorded = recordLoad(history, last, value);
      if (recorded) ({ history, last } = recorded);
      return recorded;
    };
    load(reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a', 'missing-recovery-key:b', 'missing-laps-password:c']));
    expect(latestChange(history)).toBeNull();
    expect(history.points).toEqual([
      { at: '2026-11-20T09:00:00.000Z', findings: 3, counts: { 'missing-recovery-key': 2, 'missing-laps-password': 1 }, fresh: null, resolved: null },
    ]);
    expect(load(reportResult('2026-11-20T10:00:00.000Z', [], { state: 'load-error' }))).toBeNull();
    // b is fixed, d is new; c's kind could not be checked this time (its source was n/a), so it is not resolved.
    load(reportResult('2026-11-21T09:00:00.000Z', ['missing-recovery-key:a', 'missing-recovery-key:d'], { unchecked: ['missing-laps-password'] }));
    expect(history.points).toHaveLength(2);
    expect(latestChange(history)).toEqual({ since: '2026-11-20T09:00:00.000Z', fresh: 1, resolved: 1 });
  });

  it('keeps open a finding left unchecked for its subject, resolves the others of its kind, and does not call it new when it shows again', () => {
    const first = recordLoad(emptyHistory('escrow-gaps'), null, reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a', 'missing-recovery-key:b']))!;
    const unchecked = [{ kind: 'missing-recovery-key', subjectId: 'a', fingerprint: 'missing-recovery-key:a' }];
    const second = recordLoad(first.history, first.last, reportResult('2026-11-21T09:00:00.000Z', [], { uncheckedSubjects: unchecked }))!;
    expect(latestChange(second.history)).toEqual({ since: '2026-11-20T09:00:00.000Z', fresh: 0, resolved: 1 });
    const third = recordLoad(second.history, second.last, reportResult('2026-11-22T09:00:00.000Z', ['missing-recovery-key:a']))!;
    expect(latestChange(third.history)).toEqual({ since: '2026-11-21T09:00:00.000Z', fresh: 0, resolved: 0 });
  });

  it('keeps the whole kind open when the unchecked finding has no known fingerprint (its rules were not all read)', () => {
    const first = recordLoad(emptyHistory('escrow-gaps'), null, reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a', 'missing-recovery-key:b']))!;
    const unchecked = [{ kind: 'missing-recovery-key', subjectId: 'a', fingerprint: null }];
    const second = recordLoad(first.history, first.last, reportResult('2026-11-21T09:00:00.000Z', [], { uncheckedSubjects: unchecked }))!;
    expect(latestChange(second.history)).toEqual({ since: '2026-11-20T09:00:00.000Z', fresh: 0, resolved: 0 });
    const third = recordLoad(second.history, second.last, reportResult('2026-11-22T09:00:00.000Z', []))!;
    expect(latestChange(third.history)).toEqual({ since: '2026-11-21T09:00:00.000Z', fresh: 0, resolved: 2 });
  });

  it('counts a late, older load in its place without changing what the next load compares with', () => {
    let history: ReportHistory = emptyHistory('escrow-gaps');
    let last: LastFindings | null = null;
    const load = (value: ReportResult) => ({ history, last } = recordLoad(history, last, value)!);
    load(reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a']));
    load(reportResult('2026-11-20T11:00:00.000Z', ['missing-recovery-key:c']));
    // Another instance's load from 10:00 lands last.
    load(reportResult('2026-11-20T10:00:00.000Z', ['missing-recovery-key:b']));
    expect(history.points.map((point) => [point.at, point.fresh, point.resolved])).toEqual([
      ['2026-11-20T09:00:00.000Z', null, null],
      ['2026-11-20T10:00:00.000Z', null, null],
      ['2026-11-20T11:00:00.000Z', 1, 1],
    ]);
    expect(last!.at).toBe('2026-11-20T11:00:00.000Z');
    load(reportResult('2026-11-20T12:00:00.000Z', ['missing-recovery-key:c']));
    expect(latestChange(history)).toEqual({ since: '2026-11-20T11:00:00.000Z', fresh: 0, resolved: 0 });
  });

  it('keeps 90 days, thinned as points age, and carries a dropped point’s changes into the one kept after it', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    const points = [
      point('2026-08-01T00:00:00.000Z'), // older than 90 days: dropped
      point('2026-09-01T08:00:00.000Z', 2, 1), // same day as the next: carried into it
      point('2026-09-01T20:00:00.000Z', 1, 0),
      point('2026-11-20T10:05:00.000Z', 4, 0), // same hour as the next, within two weeks: carried
      point('2026-11-20T10:55:00.000Z', 0, 3),
      point('2026-11-23T11:00:00.000Z', 1, 1), // the last day: every point kept
      point('2026-11-23T11:05:00.000Z', 0, 0),
    ];
    expect(thinned(points, now)).toEqual([
      point('2026-09-01T20:00:00.000Z', 3, 1),
      point('2026-11-20T10:55:00.000Z', 4, 3),
      point('2026-11-23T11:00:00.000Z', 1, 1),
      point('2026-11-23T11:05:00.000Z', 0, 0),
    ]);
  });

  it('stays within a few hundred points however often the report loads', () => {
    let history: ReportHistory = emptyHistory('escrow-gaps');
    let last: LastFindings | null = null;
    const start = Date.parse('2026-08-01T00:00:00.000Z');
    // A load every twenty minutes for 100 days.
    for (let index = 0; index < 100 * 72; index += 1) {
      const recorded: { history: ReportHistory; last: LastFindings } = recordLoad(
        history,
        last,
        reportResult(new Date(start + index * 1_200_000).toISOString(), [`k:${index % 7}`]),
      )!;
      ({ history, last } = recorded);
    }
    expect(history.points.length).toBeLessThanOrEqual(72 + 24 * 14 + 77);
    expect(Date.parse(history.points[0]!.at)).toBeGreaterThanOrEqual(Date.parse(history.points.at(-1)!.at) - 90 * 86_400_000);
  });

  it('is kept in the state store, read back by another instance, and survives a restart', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-history-'));
    try {
      const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
      const records = new HistoryRecords(store);
      expect(await records.record(reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a']))).toBe(true);
      expect(await records.record(reportResult('2026-11-20T09:30:00.000Z', [], { state: 'load-error' }))).toBe(true);
      expect(await records.record(reportResult('2026-11-21T09:00:00.000Z', ['missing-recovery-key:b']))).toBe(true);
      await store.close();
      const reopened = new HistoryRecords(await FileStateStore.open(directory, { tenant: 'test-tenant' }));
      const history = await reopened.read('escrow-gaps');
      expect(history.points.map((kept) => kept.at)).toEqual(['2026-11-20T09:00:00.000Z', '2026-11-21T09:00:00.000Z']);
      expect(latestChange(history)).toEqual({ since: '2026-11-20T09:00:00.000Z', fresh: 1, resolved: 1 });
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });

  it('refuses a torn history rather than start it afresh, drops a torn copy of the last findings, and gives up its point when the lock is held too long', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'dmhealth-history-'));
    try {
      const store = await FileStateStore.open(directory, { tenant: 'test-tenant' });
      const records = new HistoryRecords(store);
      await store.writeDocument('history-escrow-gaps', '{"torn":');
      await expect(records.read('escrow-gaps')).rejects.toThrow(
        'The history of report escrow-gaps in the state store is not readable; move tenants/test-tenant/documents/history-escrow-gaps.json aside.',
      );
      await expect(records.record(reportResult('2026-11-20T09:00:00.000Z', ['missing-recovery-key:a']))).rejects.toThrow('not readable');
      expect(await store.readDocument('history-escrow-gaps')).toBe('{"torn":');

      // The last findings only feed the counts: torn, the next point is kept and counts no changes.
      await store.writeDocument('history-escrow-gaps', JSON.stringify(emptyHistory('escrow-gaps')));
      expect(await records.record(reportResult('2026-11-21T09:00:00.000Z', ['missing-recovery-key:a']))).toBe(true);
      await store.writeDocument('history-escrow-gaps-findings', 'not json');
      expect(await records.record(reportResult('2026-11-21T10:00:00.000Z', ['missing-recovery-key:b']))).toBe(true);
      const history = await new HistoryRecords(store).read('escrow-gaps');
      expect(history.points).toHaveLength(2);
      expect(history.points.at(-1)).toMatchObject({ fresh: null, resolved: null });

      // Another instance holding the history's lock: this load adds no point, and says so.
      const release = await holdLock(store, 'document:history-escrow-gaps');
      expect(await records.record(reportResult('2026-11-22T09:00:00.000Z', ['missing-recovery-key:b']))).toBe(false);
      await release();
      await store.close();
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
