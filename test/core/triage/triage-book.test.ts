import { describe, expect, it } from 'vitest';
import {
  AUDIT_PER_PERSON,
  applyTriage,
  decisionsInForce,
  emptyTriageBook,
  isTriageBook,
  readTriageRequest,
  splitByTriage,
  triageStateAt,
} from '../../../src/core/triage/triage-book.js';
import type { TriageBook, TriageRequest } from '../../../src/core/triage/triage-book.js';

const alex = { objectId: '11111111-1111-1111-1111-111111111111', name: 'Alex Wilber', username: 'alex@contoso.example' };
const megan = { objectId: '22222222-2222-2222-2222-222222222222', name: 'Megan Bowen', username: 'megan@contoso.example' };
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

function apply(book: TriageBook, request: TriageRequest, at = now, by = alex) {
  return applyTriage(book, request, { report: 'escrow-gaps', finding: finding(request.fingerprint), by, now: at });
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
    expect(applyTriage(book, { action: 'accept', fingerprint: FP, reason: 'gone' }, { report: 'escrow-gaps', finding: null, by: alex, now })).toMatchObject({
      ok: false,
      status: 404,
    });
  });

  it("reopens a decision only through its own report: another report's route finds none", () => {
    const accepted = apply(emptyTriageBook(), { action: 'accept', fingerprint: FP, reason: 'Kiosk' });
    if (!accepted.ok) throw new Error(accepted.message);
    const elsewhere = applyTriage(accepted.book, { action: 'reopen', fingerprint: FP }, { report: 'connector-health', finding: null, by: alex, now });
    expect(elsewhere).toMatchObject({ ok: false, status: 404 });
    expect(applyTriage(accepted.book, { action: 'reopen', fingerprint: FP }, { report: 'escrow-gaps', finding: null, by: alex, now }).ok).toBe(true);
  });

  it("keeps the audit list bounded per person: one person's many changes push out only their own oldest, never another's", () => {
    const meganFirst = apply(emptyTriageBook(), { action: 'accept', fingerprint: 'b'.repeat(32), reason: 'Lab device' }, now, megan);
    if (!meganFirst.ok) throw new Error(meganFirst.message);
    let book = meganFirst.book;
    for (let index = 0; index < AUDIT_PER_PERSON + 5; index += 1) {
      const outcome = apply(book, { action: index % 2 === 0 ? 'accept' : 'reopen', fingerprint: FP, reason: `round ${index}` });
      if (!outcome.ok) throw new Error(outcome.message);
      book = outcome.book;
    }
    const alexs = book.audit.filter((entry) => entry.by.objectId === alex.objectId);
    expect(alexs).toHaveLength(AUDIT_PER_PERSON);
    expect(alexs[0]!.reason).toBe('round 5');
    expect(alexs.at(-1)!.reason).toBe(`round ${AUDIT_PER_PERSON + 4}`);
    // Megan's one decision, older than all of Alex's, is still there, in its place.
    expect(book.audit[0]).toMatchObject({ by: megan, reason: 'Lab device' });
  });

  it('reads a stored book only when every decision and audit entry has its shape', () => {
    const accepted = apply(emptyTriageBook(), { action: 'accept', fingerprint: FP, reason: 'Kiosk' });
    if (!accepted.ok) throw new Error(accepted.message);
    expect(isTriageBook(JSON.parse(JSON.stringify(accepted.book)))).toBe(true);
    for (const hostile of [
      { ...accepted.book, audit: [null] },
      { ...accepted.book, audit: [{ ...accepted.book.audit[0], by: 'someone' }] },
      { ...accepted.book, audit: [{ ...accepted.book.audit[0], report: 7 }] },
      { ...accepted.book, decisions: [{ ...accepted.book.decisions[0], by: null }] },
      { ...accepted.book, decisions: [{ ...accepted.book.decisions[0], report: ['escrow-gaps'] }] },
      { ...accepted.book, decisions: [{ ...accepted.book.decisions[0], until: 20261201 }] },
    ]) {
      expect(isTriageBook(hostile)).toBe(false);
    }
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
