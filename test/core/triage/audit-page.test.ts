import { describe, expect, it } from 'vitest';
import { AUDIT_PAGE_DEFAULT, auditPageOf, readAuditPageQuery } from '../../../src/core/triage/audit-page.js';
import { AUDIT_PER_PERSON, applyTriage, emptyTriageBook, isTriageBook, sequencedTriageBook } from '../../../src/core/triage/triage-book.js';
import type { TriageActor, TriageBook } from '../../../src/core/triage/triage-book.js';

const alex = { objectId: '11111111-1111-1111-1111-111111111111', name: 'Alex Wilber', username: 'alex@contoso.example' };
const megan = { objectId: '22222222-2222-2222-2222-222222222222', name: 'Megan Bowen', username: 'megan@contoso.example' };
const now = new Date('2026-11-23T10:00:00.000Z');
const FP = 'a'.repeat(32);
const finding = { kind: 'missing-recovery-key', subjectId: 'd1', subjectName: 'PC-1', detail: '' };

/** `count` changes by `by` to the one finding, accept and reopen in turn, after those already in `book`. */
function churn(book: TriageBook, count: number, by: TriageActor, report = 'escrow-gaps', fingerprint = FP): TriageBook {
  let current = book;
  for (let index = 0; index < count; index += 1) {
    const accepting = !current.decisions.some((decision) => decision.fingerprint === fingerprint);
    const outcome = applyTriage(
      current,
      { action: accepting ? 'accept' : 'reopen', fingerprint, reason: `round ${index}` },
      { report, finding: { ...finding, fingerprint }, by, now },
    );
    if (!outcome.ok) throw new Error(outcome.message);
    current = outcome.book;
  }
  return current;
}
const query = (parameters: Record<string, unknown>) => {
  const read = readAuditPageQuery(parameters);
  if (!read.ok) throw new Error(read.error.message);
  return read.query;
};

describe('the triage audit, a page at a time', () => {
  it("numbers every entry once, and keeps the numbers when a person's oldest are dropped", () => {
    const book = churn(churn(emptyTriageBook(), 1, megan), AUDIT_PER_PERSON + 3, alex);
    expect(book.audit[0]).toMatchObject({ seq: 1, by: megan });
    // Alex's first three (2, 3 and 4) went; the rest keep their numbers.
    expect(book.audit[1]!.seq).toBe(5);
    expect(book.audit.at(-1)!.seq).toBe(AUDIT_PER_PERSON + 4);
  });

  it("pages newest first to another person's one old entry, narrows to it, and lists the people", () => {
    const book = churn(churn(churn(emptyTriageBook(), 1, megan), 120, alex), 4, alex, 'connector-health', 'b'.repeat(32));
    const first = auditPageOf(book.audit, 'escrow-gaps', query({}));
    expect(first.entries).toHaveLength(AUDIT_PAGE_DEFAULT);
    expect(first.entries[0]!.seq).toBe(121);
    expect(first.total).toBe(121);
    expect(first.people).toEqual([
      { ...alex, entries: 120 },
      { ...megan, entries: 1 },
    ]);
    const pages = [first];
    while (pages.at(-1)!.older !== null && pages.length < 10) pages.push(auditPageOf(book.audit, 'escrow-gaps', query({ before: String(pages.at(-1)!.older) })));
    expect(pages.map((page) => page.entries.length)).toEqual([50, 50, 21]);
    expect(pages.flatMap((page) => page.entries.map((entry) => entry.seq))).toEqual(Array.from({ length: 121 }, (_, index) => 121 - index));
    const hers = auditPageOf(book.audit, 'escrow-gaps', query({ person: megan.objectId }));
    expect(hers).toMatchObject({ total: 1, older: null, entries: [{ seq: 1, by: megan }] });
    // Another report's entries are its own.
    expect(auditPageOf(book.audit, 'connector-health', query({})).total).toBe(4);
  });

  it('reads a parameter given twice as its last, and refuses one it cannot take, naming it', () => {
    expect(query({ limit: ['10', '20'] }).limit).toBe(20);
    expect(readAuditPageQuery({ limit: '0' })).toEqual({ ok: false, error: { parameter: 'limit', message: 'limit: "0" is not a whole number from 1 to 200.' } });
    expect(readAuditPageQuery({ before: 'x' })).toMatchObject({ ok: false, error: { parameter: 'before' } });
    expect(readAuditPageQuery({ person: '  ' })).toMatchObject({ ok: false, error: { parameter: 'person' } });
  });

  it('numbers a stored book written before entries had numbers by place, and goes on after a numbered tail', () => {
    const numbered = churn(emptyTriageBook(), 3, alex);
    const unnumbered = JSON.parse(JSON.stringify({ ...numbered, audit: numbered.audit.map(({ seq: _seq, ...entry }) => entry) })) as unknown;
    expect(isTriageBook(unnumbered)).toBe(true);
    if (!isTriageBook(unnumbered)) return;
    expect(sequencedTriageBook(unnumbered).audit.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    // Entries an older instance added after numbered ones follow on from them.
    const mixed = { ...numbered, audit: [...numbered.audit.map((entry) => ({ ...entry, seq: entry.seq + 10 })), { ...unnumbered.audit[0]! }] };
    expect(sequencedTriageBook(mixed).audit.map((entry) => entry.seq)).toEqual([11, 12, 13, 14]);
    expect(isTriageBook({ ...numbered, audit: [{ ...numbered.audit[0], seq: 0 }] })).toBe(false);
    expect(isTriageBook({ ...numbered, audit: [{ ...numbered.audit[0], seq: '1' }] })).toBe(false);
  });
});
