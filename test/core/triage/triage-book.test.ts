import { describe, expect, it } from 'vitest';
import { AUDIT_LIMIT, applyTriage, decisionsInForce, emptyTriageBook, readTriageRequest, splitByTriage, triageStateAt } from '../../../src/core/triage/triage-book.js';
import type { TriageBook, TriageRequest } from '../../../src/core/triage/triage-book.js';

const alex = { objectId: '11111111-1111-1111-1111-111111111111', name: 'Alex Wilber', username: 'alex@contoso.example' };
const now = new Date('2026-11-23T10:00:00.000Z');
const finding = (fingerprint: string) => ({
  report: 'escrow-gaps',
  kind: 'missing-recovery-key',
  subjectId: fingerprint,
  subjectName: `PC-${fingerprint.slice(0, 4)}`,
  detail: '',
  fingerprint,
});
const FP = 'a'.repeat(32);

function apply(book: TriageBook, request: TriageRequest, at = now) {
  return applyTriage(book, request, { finding: finding(request.fingerprint), by: alex, now: at });
}

describe('triage decisions', () => {
  it('accepts with a reason, snoozes to a day, reopens, and keeps who did what', () => {
    const accepted = apply(emptyTriageBook(), { action: 'accept', fingerprint: FP, reason: ' Kiosk: no BitLocker by design ' });
    if (!accepted.ok) throw new Error(accepted.message);
    expect(accepted.decision).toMatchObject({ state: 'accepted', reason: 'Kiosk: no BitLocker by design', by: alex, at: now.toISOString(), subjectName: 'PC-aaaa' });
    const snoozed = apply(accepted.book, { action: 'snooze', fingerprint: FP, until: '2026-12-01' });
    if (!snoozed.ok) throw new Error(snoozed.message);
    expect(snoozed.book.decisions).toHaveLength(1);
    expect(snoozed.book.decisions[0]).toMatchObject({ state: 'snoozed', until: '2026-12-01' });
    const reopened = apply(snoozed.book, { action: 'reopen', fingerprint: FP });
    if (!reopened.ok) throw new Error(reopened.message);
    expect(reopened.book.decisions).toEqual([]);
    expect(reopened.book.audit.map((entry) => [entry.action, entry.by.username])).toEqual([
      ['accept', alex.username],
      ['snooze', alex.username],
      ['reopen', alex.username],
    ]);
  });

  it('ends a snooze after its last day, and then the finding is open again', () => {
    const snoozed = apply(emptyTriageBook(), { action: 'snooze', fingerprint: FP, until: '2026-11-30' });
    if (!snoozed.ok) throw new Error(snoozed.message);
    const decision = snoozed.book.decisions[0]!;
    expect(triageStateAt(decision, new Date('2026-11-30T23:59:59.000Z'))).toBe('snoozed');
    expect(triageStateAt(decision, new Date('2026-12-01T00:00:00.000Z'))).toBeNull();
    const later = new Date('2026-12-01T08:00:00.000Z');
    const split = splitByTriage([finding(FP), finding('b'.repeat(32))], decisionsInForce(snoozed.book, later), later);
    expect(split.open).toHaveLength(2);
    expect(split.snoozed).toEqual([]);
  });

  it('refuses what it cannot keep: no reason to accept, a snooze in the past or past a year, reopening an open finding, a finding gone', () => {
    const book = emptyTriageBook();
    expect(apply(book, { action: 'accept', fingerprint: FP, reason: '  ' })).toMatchObject({ ok: false, status: 400 });
    expect(apply(book, { action: 'snooze', fingerprint: FP, until: '2026-11-22' })).toMatchObject({ ok: false, status: 400 });
    expect(apply(book, { action: 'snooze', fingerprint: FP, until: '2028-01-01' })).toMatchObject({ ok: false, status: 400 });
    expect(apply(book, { action: 'snooze', fingerprint: FP, until: '2026-02-30' })).toMatchObject({ ok: false, status: 400 });
    expect(apply(book, { action: 'accept', fingerprint: FP, reason: 'x'.repeat(501) })).toMatchObject({ ok: false, status: 400 });
    expect(apply(book, { action: 'reopen', fingerprint: FP })).toMatchObject({ ok: false, status: 409 });
    expect(applyTriage(book, { action: 'accept', fingerprint: FP, reason: 'gone' }, { finding: null, by: alex, now })).toMatchObject({ ok: false, status: 404 });
  });

  it('keeps the audit list bounded, dropping the oldest', () => {
    let book = emptyTriageBook();
    for (let index = 0; index < AUDIT_LIMIT + 5; index += 1) {
      const outcome = apply(book, { action: index % 2 === 0 ? 'accept' : 'reopen', fingerprint: FP, reason: `round ${index}` });
      if (!outcome.ok) throw new Error(outcome.message);
      book = outcome.book;
    }
    expect(book.audit).toHaveLength(AUDIT_LIMIT);
    expect(book.audit.at(-1)!.reason).toBe(`round ${AUDIT_LIMIT + 4}`);
  });

  it('reads a request body, refusing anything else', () => {
    expect(readTriageRequest({ action: 'snooze', fingerprint: FP, until: '2026-12-01' })).toEqual({
      ok: true,
      request: { action: 'snooze', fingerprint: FP, until: '2026-12-01' },
    });
    expect(readTriageRequest({ action: 'delete', fingerprint: FP }).ok).toBe(false);
    expect(readTriageRequest({ action: 'accept', fingerprint: '../../etc' }).ok).toBe(false);
    expect(readTriageRequest({ action: 'accept', fingerprint: FP, reason: 5 }).ok).toBe(false);
    expect(readTriageRequest(null).ok).toBe(false);
  });
});
